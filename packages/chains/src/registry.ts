import type { Environment, VariableCheck } from "@sweep/common";
import { getAddress, isAddress } from "ethers";
import { z } from "zod";
import { parseRpcUrls } from "@sweep/rpc";

export interface TokenListing {
  ticker: string;
  decimals: number;
  /** EIP-55 address; on the testnet devnet this is where `pnpm start` deploys the devnet token */
  address: string;
  /**
   * `FEE_ON_TRANSFER_<chain_id>_<TICKER>=true`: the token may keep part of a transfer, so a sweep
   * books what the hot wallet received (the delegate reads its balance before and after: about
   * 1,700 gas more per item, paid by this token's items only)
   */
  feeOnTransfer: boolean;
}

export interface ChainInfo {
  chainId: number;
  name: string;
  nativeTicker: string;
  /** blocks on top of the receipt's block before an outcome counts as final */
  confirmations: number;
  /** mainnet chains: the fewest `CONFIRMATIONS_<chain_id>` may set (see MAINNET_MIN_CONFIRMATIONS) */
  minConfirmations?: number;
  /** milliseconds between the chain's blocks (`BLOCK_TIME_MS_<chain_id>`): what its timers count in (head polling, thresholds in blocks) */
  blockTimeMs: number;
  /** blocks a transaction may wait unmined before it is replaced (`REPLACE_AFTER_BLOCKS_<chain_id>`) */
  replaceAfterBlocks: number;
  /** blocks a node may keep refusing the next nonce's transaction before it is given up (`DROP_AFTER_BLOCKS_<chain_id>`) */
  dropAfterBlocks: number;
  /** the local anvil's port when no RPC_URL_<chain_id> is set */
  devnetPort?: number;
  tokens: TokenListing[];
}

/** Where a devnet token lives: the CREATE2 address computed from the compiled DevToken (see devnet-addresses.ts). */
export type DevnetTokenAddress = (chainId: number, ticker: string, decimals: number) => string;

interface ChainTemplate extends Omit<ChainInfo, "tokens"> {
  tokens: Array<Omit<TokenListing, "address" | "feeOnTransfer"> & { address?: string }>;
}

/**
 * The shallowest depth a mainnet chain may be configured with: below it a reorg could take back a
 * sweep already booked swept and charged. Ethereum 6 (72 s): since the merge no reorg deeper than 2
 * blocks has been seen, and 6 keeps a margin over that while the default 12 stays the advice. BSC 15
 * (under 7 s at 0.45 s blocks), its default: fast finality (BEP-126) finalizes a block within a few
 * blocks while its votes flow, and nothing here tells how deep a reorg goes while they lag.
 */
export const MAINNET_MIN_CONFIRMATIONS: Readonly<Record<number, number>> = { 1: 6, 56: 15 };

const ethereumTiming = { blockTimeMs: 12_000, replaceAfterBlocks: 3, dropAfterBlocks: 5 };
const bscTiming = { blockTimeMs: 450, replaceAfterBlocks: 30, dropAfterBlocks: 135 };

/**
 * The environments of the spec. Testnet tokens without an address are the devnet's own deployments.
 * Block times: Ethereum and Sepolia make a block a 12 s slot; BSC and its testnet one every 0.45 s
 * since the Fermi hard fork (January 2026; Lorentz made it 1.5 s and Maxwell 0.75 s in 2025).
 * Thresholds: replacement after about 36 s on Ethereum (3 slots: a fairly priced transaction is in
 * the next one) and 13.5 s on BSC; a refused nonce given up after about a minute on both.
 */
const templates: Record<Environment, ChainTemplate[]> = {
  testnet: [
    { chainId: 11155111, name: "Sepolia", nativeTicker: "ETH", confirmations: 1, ...ethereumTiming, devnetPort: 8545, tokens: [{ ticker: "USDT", decimals: 6 }] },
    { chainId: 97, name: "BSC Testnet", nativeTicker: "tBNB", confirmations: 1, ...bscTiming, devnetPort: 8546, tokens: [{ ticker: "USDT", decimals: 18 }] },
  ],
  mainnet: [
    {
      chainId: 1,
      name: "Ethereum",
      nativeTicker: "ETH",
      confirmations: 12,
      minConfirmations: MAINNET_MIN_CONFIRMATIONS[1],
      ...ethereumTiming,
      tokens: [{ ticker: "USDT", decimals: 6, address: "0xdAC17F958D2ee523a2206206994597C13D831ec7" }],
    },
    {
      chainId: 56,
      name: "BNB Smart Chain",
      nativeTicker: "BNB",
      confirmations: 15,
      minConfirmations: MAINNET_MIN_CONFIRMATIONS[56],
      ...bscTiming,
      tokens: [{ ticker: "USDT", decimals: 18, address: "0x55d398326f99059fF775485246999027B3197955" }],
    },
  ],
};

const confirmations = z.coerce.number().int().min(0).max(1000);

/** `CONFIRMATIONS_<chain_id>`: a whole number of blocks from 0 to 1000. */
function confirmationsOverride(variable: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = confirmations.safeParse(value);
  if (!parsed.success) throw new Error(`${variable} must be a whole number of blocks from 0 to 1000`);
  return parsed.data;
}

const blockTime = z.coerce.number().int().min(1).max(600_000);
const blockCount = z.coerce.number().int().min(0).max(100_000);

/** `BLOCK_TIME_MS_<chain_id>`: whole milliseconds from 1 to 600000. */
function blockTimeOverride(variable: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = blockTime.safeParse(value);
  if (!parsed.success) throw new Error(`${variable} must be whole milliseconds from 1 to 600000`);
  return parsed.data;
}

/** `REPLACE_AFTER_BLOCKS_<chain_id>`, `DROP_AFTER_BLOCKS_<chain_id>`: a whole number of blocks from 0 to 100000. */
function blockCountOverride(variable: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = blockCount.safeParse(value);
  if (!parsed.success) throw new Error(`${variable} must be a whole number of blocks from 0 to 100000`);
  return parsed.data;
}

/** `TOKEN_<chain_id>_<TICKER>`: the listed token's contract on this chain's node. */
function tokenOverride(variable: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!isAddress(value)) throw new Error(`${variable} must be a token contract's address (a valid checksum when mixed case)`);
  return getAddress(value);
}

/** `FEE_ON_TRANSFER_<chain_id>_<TICKER>`: true or false; unset is false. */
function feeOnTransferFlag(variable: string, value: string | undefined): boolean {
  if (!value || value === "false") return false;
  if (value === "true") return true;
  throw new Error(`${variable} must be true or false`);
}

const throwing: VariableCheck = (read) => read();

/**
 * Overrides per chain from the environment: `CONFIRMATIONS_<chain_id>`, `BLOCK_TIME_MS_<chain_id>`,
 * `REPLACE_AFTER_BLOCKS_<chain_id>`, `DROP_AFTER_BLOCKS_<chain_id>`,
 * `TOKEN_<chain_id>_<TICKER>=<address>` (a listed token's address on a real node) and
 * `FEE_ON_TRANSFER_<chain_id>_<TICKER>=true` (the token may keep part of a transfer).
 */
export function chainRegistry(environment: Environment, devnetTokenAddress: DevnetTokenAddress, env: NodeJS.ProcessEnv = process.env, check: VariableCheck = throwing): ChainInfo[] {
  return templates[environment].map((chain) => ({
    ...chain,
    confirmations: check(() => confirmationsOverride(`CONFIRMATIONS_${chain.chainId}`, env[`CONFIRMATIONS_${chain.chainId}`])) ?? chain.confirmations,
    blockTimeMs: check(() => blockTimeOverride(`BLOCK_TIME_MS_${chain.chainId}`, env[`BLOCK_TIME_MS_${chain.chainId}`])) ?? chain.blockTimeMs,
    replaceAfterBlocks: check(() => blockCountOverride(`REPLACE_AFTER_BLOCKS_${chain.chainId}`, env[`REPLACE_AFTER_BLOCKS_${chain.chainId}`])) ?? chain.replaceAfterBlocks,
    dropAfterBlocks: check(() => blockCountOverride(`DROP_AFTER_BLOCKS_${chain.chainId}`, env[`DROP_AFTER_BLOCKS_${chain.chainId}`])) ?? chain.dropAfterBlocks,
    tokens: chain.tokens.map((token) => ({
      ticker: token.ticker,
      decimals: token.decimals,
      address: check(() => tokenOverride(`TOKEN_${chain.chainId}_${token.ticker}`, env[`TOKEN_${chain.chainId}_${token.ticker}`])) ?? token.address ?? devnetTokenAddress(chain.chainId, token.ticker, token.decimals),
      feeOnTransfer: check(() => feeOnTransferFlag(`FEE_ON_TRANSFER_${chain.chainId}_${token.ticker}`, env[`FEE_ON_TRANSFER_${chain.chainId}_${token.ticker}`])) ?? false,
    })),
  }));
}

/** Lower-case addresses of a chain's tokens marked FEE_ON_TRANSFER_, as the chain-sender looks them up. */
export function feeOnTransferTokens(chain: Pick<ChainInfo, "tokens">): ReadonlySet<string> {
  return new Set(chain.tokens.filter((t) => t.feeOnTransfer).map((t) => t.address.toLowerCase()));
}

export function environmentChainIds(environment: Environment): number[] {
  return templates[environment].map((c) => c.chainId);
}

/** `RPC_URL_<chain_id>` names a chain's real nodes (comma-separated, tried in order); otherwise the local anvil of that chain. */
export function rpcUrlsFor(chain: Pick<ChainInfo, "chainId" | "devnetPort">, env: NodeJS.ProcessEnv = process.env): string[] {
  const variable = `RPC_URL_${chain.chainId}`;
  const configured = env[variable];
  if (configured) return parseRpcUrls(variable, configured);
  if (chain.devnetPort === undefined) throw new Error(`${variable} is required: chain ${chain.chainId} has no local devnet`);
  return [`http://127.0.0.1:${chain.devnetPort}`];
}
