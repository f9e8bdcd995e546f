import type { Environment } from "@sweep/common";
import { z } from "zod";

export interface TokenListing {
  ticker: string;
  decimals: number;
  /** EIP-55 address; on the testnet devnet this is where `pnpm start` deploys the devnet token */
  address: string;
}

export interface ChainInfo {
  chainId: number;
  name: string;
  nativeTicker: string;
  /** blocks on top of the receipt's block before an outcome counts as final */
  confirmations: number;
  /** the local anvil's port when no RPC_URL_<chain_id> is set */
  devnetPort?: number;
  tokens: TokenListing[];
}

/** Where a devnet token lives: the CREATE2 address computed from the compiled DevToken (see devnet-addresses.ts). */
export type DevnetTokenAddress = (chainId: number, ticker: string, decimals: number) => string;

interface ChainTemplate extends Omit<ChainInfo, "tokens"> {
  tokens: Array<Omit<TokenListing, "address"> & { address?: string }>;
}

/** The environments of the spec. Testnet tokens without an address are the devnet's own deployments. */
const templates: Record<Environment, ChainTemplate[]> = {
  testnet: [
    { chainId: 11155111, name: "Sepolia", nativeTicker: "ETH", confirmations: 1, devnetPort: 8545, tokens: [{ ticker: "USDT", decimals: 6 }] },
    { chainId: 97, name: "BSC Testnet", nativeTicker: "tBNB", confirmations: 1, devnetPort: 8546, tokens: [{ ticker: "USDT", decimals: 18 }] },
  ],
  mainnet: [
    {
      chainId: 1,
      name: "Ethereum",
      nativeTicker: "ETH",
      confirmations: 12,
      tokens: [{ ticker: "USDT", decimals: 6, address: "0xdAC17F958D2ee523a2206206994597C13D831ec7" }],
    },
    {
      chainId: 56,
      name: "BNB Smart Chain",
      nativeTicker: "BNB",
      confirmations: 15,
      tokens: [{ ticker: "USDT", decimals: 18, address: "0x55d398326f99059fF775485246999027B3197955" }],
    },
  ],
};

const confirmationsOverride = z.coerce.number().int().min(0).max(1000).optional();

/**
 * Overrides per chain from the environment: `CONFIRMATIONS_<chain_id>` and
 * `TOKEN_<chain_id>_<TICKER>=<address>` (a listed token's address on a real node).
 */
export function chainRegistry(environment: Environment, devnetTokenAddress: DevnetTokenAddress, env: NodeJS.ProcessEnv = process.env): ChainInfo[] {
  return templates[environment].map((chain) => ({
    ...chain,
    confirmations: confirmationsOverride.parse(env[`CONFIRMATIONS_${chain.chainId}`] || undefined) ?? chain.confirmations,
    tokens: chain.tokens.map((token) => ({
      ticker: token.ticker,
      decimals: token.decimals,
      address: env[`TOKEN_${chain.chainId}_${token.ticker}`] ?? token.address ?? devnetTokenAddress(chain.chainId, token.ticker, token.decimals),
    })),
  }));
}

export function environmentChainIds(environment: Environment): number[] {
  return templates[environment].map((c) => c.chainId);
}

/** `RPC_URL_<chain_id>` points at a real node; otherwise the local anvil of that chain. */
export function rpcUrlFor(chain: Pick<ChainInfo, "chainId" | "devnetPort">, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[`RPC_URL_${chain.chainId}`];
  if (configured) return configured;
  if (chain.devnetPort === undefined) throw new Error(`RPC_URL_${chain.chainId} is required: chain ${chain.chainId} has no local devnet`);
  return `http://127.0.0.1:${chain.devnetPort}`;
}
