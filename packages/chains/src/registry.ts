import type { Environment, VariableCheck } from "@sweep/common";
import { getAddress, isAddress } from "ethers";
import { z } from "zod";
import { parseRpcUrls } from "@sweep/rpc";
import { DEFAULT_ENV_CHAINS, FEE_MODELS, chainPreset, type ChainPreset, type FeeModel, type PresetToken } from "./presets";

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

/** A chain as the services serve it: its preset or its variables, every listed token with its address. */
export interface ChainInfo extends Omit<ChainPreset, "environment" | "tokens"> {
  tokens: TokenListing[];
}

/** Where a devnet token lives: the CREATE2 address computed from the compiled DevToken (see devnet-addresses.ts). */
export type DevnetTokenAddress = (chainId: number, ticker: string, decimals: number) => string;

const confirmations = z.coerce.number().int().min(0).max(1000);

/** `CONFIRMATIONS_<chain_id>`: a whole number of blocks from 0 to 1000, or `finalized` (the node's finalized block). */
function confirmationsOverride(variable: string, value: string | undefined): number | "finalized" | undefined {
  if (!value) return undefined;
  if (value === "finalized") return value;
  const parsed = confirmations.safeParse(value);
  if (!parsed.success) throw new Error(`${variable} must be a whole number of blocks from 0 to 1000, or finalized`);
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

function fail(message: string): never {
  throw new Error(message);
}

/** `FEE_MODEL_<chain_id>`: one of FEE_MODELS. */
function feeModelOverride(variable: string, value: string | undefined): FeeModel | undefined {
  if (!value) return undefined;
  const model = FEE_MODELS.find((m) => m === value);
  if (!model) throw new Error(`${variable} must be one of ${FEE_MODELS.join(", ")}`);
  return model;
}

/** A preset's fee model is a fact of the chain: FEE_MODEL_ may repeat it, never change it (the fees would be booked wrong). */
function presetFeeModel(preset: ChainPreset | undefined, configured: FeeModel | undefined): FeeModel | undefined {
  if (preset && configured && configured !== preset.feeModel) throw new Error(`FEE_MODEL_${preset.chainId} is ${configured}, but ${preset.name} charges as ${preset.feeModel}`);
  return configured;
}

/** `CHAIN_NAME_<chain_id>`: what the API and console call the chain. */
function nameOverride(variable: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/.test(value)) throw new Error(`${variable} must be 1 to 40 letters, digits, spaces, '.', '_' or '-'`);
  return value;
}

const TICKER_PATTERN = "[A-Za-z0-9]{1,11}";
const TICKER = new RegExp(`^${TICKER_PATTERN}$`);
const TOKEN_ENTRY = new RegExp(`^(${TICKER_PATTERN}):([0-9]{1,2})$`);

/** `NATIVE_TICKER_<chain_id>`: the native coin's ticker, as the API shows it. */
function tickerOverride(variable: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!TICKER.test(value)) throw new Error(`${variable} must be a ticker of 1 to 11 letters and digits`);
  return value;
}

/**
 * `TOKENS_<chain_id>`: the listed tokens as `TICKER:decimals`, comma-separated, in place of the
 * preset's; a token the preset lists keeps its contract, and must keep its decimals.
 */
function tokenListOverride(variable: string, value: string | undefined, preset: ChainPreset | undefined): PresetToken[] | undefined {
  if (!value) return undefined;
  const tokens = value.split(",").map((entry) => {
    const match = TOKEN_ENTRY.exec(entry.trim());
    if (!match || Number(match[2]) > 36) throw new Error(`${variable} must list tokens as TICKER:decimals (decimals 0 to 36), comma-separated, e.g. USDT:6,USDC:6`);
    const token = { ticker: match[1]!.toUpperCase(), decimals: Number(match[2]) };
    const known = preset?.tokens.find((t) => t.ticker === token.ticker);
    if (known && known.decimals !== token.decimals) throw new Error(`${variable} lists ${token.ticker} with ${token.decimals} decimals; ${preset!.name}'s ${token.ticker} has ${known.decimals}`);
    return { ...token, address: known?.address };
  });
  const tickers = tokens.map((t) => t.ticker);
  const repeated = tickers.find((ticker, i) => tickers.indexOf(ticker) !== i);
  if (repeated) throw new Error(`${variable} lists ${repeated} twice`);
  return tokens;
}

/**
 * A sweep's `token` names the native coin by its ticker or by the word `native`: a listed token
 * answering to either would be swept as the coin.
 */
function ambiguousTicker(chainId: number, tokens: readonly PresetToken[], nativeTicker: string): void {
  const clash = tokens.find((t) => t.ticker === "NATIVE" || t.ticker === nativeTicker.toUpperCase());
  if (clash) throw new Error(`chain ${chainId} lists a token ${clash.ticker}, which a sweep's token field takes for the native coin (NATIVE_TICKER_${chainId}, TOKENS_${chainId})`);
}

/** The largest chain id the database keeps (chain_id is a Postgres integer). */
const MAX_CHAIN_ID = 2_147_483_647;

/**
 * `ENV_CHAINS`: the chains of SERVICE_ENV, comma-separated ids, each a preset of that environment or
 * a chain described by its own variables; unset, the environment's DEFAULT_ENV_CHAINS.
 */
function envChainsVariable(environment: Environment, value: string | undefined): number[] | undefined {
  if (!value) return undefined;
  const entries = value.split(",").map((entry) => entry.trim());
  if (entries.some((entry) => !/^[1-9][0-9]{0,9}$/.test(entry) || Number(entry) > MAX_CHAIN_ID)) {
    throw new Error(`ENV_CHAINS must be a comma-separated list of chain ids from 1 to ${MAX_CHAIN_ID}`);
  }
  const ids = entries.map(Number);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new Error(`ENV_CHAINS names chain ${repeated} twice`);
  for (const id of ids) {
    const preset = chainPreset(id);
    // A test key must never move mainnet money, nor a live key testnet coins it takes for real.
    if (preset && preset.environment !== environment) {
      throw new Error(`ENV_CHAINS names ${id} (${preset.name}), a ${preset.environment} chain, and SERVICE_ENV is ${environment}`);
    }
  }
  return ids;
}

/** The chain ids of an environment: ENV_CHAINS, else the environment's defaults. */
export function environmentChainIds(environment: Environment, env: NodeJS.ProcessEnv = process.env): number[] {
  return envChainsVariable(environment, env.ENV_CHAINS) ?? [...DEFAULT_ENV_CHAINS[environment]];
}

/** What a chain without a preset must configure, and what each variable is for. */
const REQUIRED_WITHOUT_PRESET: ReadonlyArray<[string, string]> = [
  ["CHAIN_NAME", "name"],
  ["NATIVE_TICKER", "native coin's ticker"],
  ["CONFIRMATIONS", "confirmation depth"],
  ["BLOCK_TIME_MS", "block time"],
];

/**
 * A chain's description before its tokens get addresses: the preset, each field overridden by its
 * variable (CHAIN_NAME_, NATIVE_TICKER_, FEE_MODEL_, CONFIRMATIONS_, BLOCK_TIME_MS_,
 * REPLACE_AFTER_BLOCKS_, DROP_AFTER_BLOCKS_, TOKENS_). A chain without a preset must set its name,
 * native ticker, confirmations and block time; its thresholds default to about 15 s and 60 s in its
 * blocks, its fee model to l1, its tokens to none.
 */
function describedChain(chainId: number, env: NodeJS.ProcessEnv, check: VariableCheck): Omit<ChainPreset, "environment"> {
  const variable = (name: string) => `${name}_${chainId}`;
  const read = <T>(name: string, parse: (variable: string, value: string | undefined) => T | undefined) => check(() => parse(variable(name), env[variable(name)]));
  const preset = chainPreset(chainId);
  const name = read("CHAIN_NAME", nameOverride) ?? preset?.name;
  const nativeTicker = read("NATIVE_TICKER", tickerOverride) ?? preset?.nativeTicker;
  const configuredConfirmations = read("CONFIRMATIONS", confirmationsOverride);
  // `finalized` keeps the preset's depth beside it: what a depth would be, for the screens that show one.
  const confirmationsValue = configuredConfirmations === "finalized" ? (preset?.confirmations ?? 0) : (configuredConfirmations ?? preset?.confirmations);
  const blockTimeMs = read("BLOCK_TIME_MS", blockTimeOverride) ?? preset?.blockTimeMs;
  if (!preset) {
    for (const [name, what] of REQUIRED_WITHOUT_PRESET) {
      if (!env[variable(name)]) check(() => fail(`${variable(name)} is required: chain ${chainId} is not a preset, so its ${what} must be configured`));
    }
  }
  const tokens = check(() => tokenListOverride(variable("TOKENS"), env[variable("TOKENS")], preset)) ?? preset?.tokens ?? [];
  if (nativeTicker) check(() => ambiguousTicker(chainId, tokens, nativeTicker));
  const blockTime = blockTimeMs ?? 1000;
  return {
    chainId,
    name: name ?? "",
    nativeTicker: nativeTicker ?? "",
    feeModel: check(() => presetFeeModel(preset, read("FEE_MODEL", feeModelOverride))) ?? preset?.feeModel ?? "l1",
    confirmations: confirmationsValue ?? 0,
    finality: configuredConfirmations === "finalized" ? "finalized" : "depth",
    minConfirmations: preset?.minConfirmations,
    blockTimeMs: blockTime,
    replaceAfterBlocks: read("REPLACE_AFTER_BLOCKS", blockCountOverride) ?? preset?.replaceAfterBlocks ?? Math.ceil(15_000 / blockTime),
    dropAfterBlocks: read("DROP_AFTER_BLOCKS", blockCountOverride) ?? preset?.dropAfterBlocks ?? Math.ceil(60_000 / blockTime),
    devnetPort: preset?.devnetPort,
    tokens,
  };
}

/**
 * The chains of an environment (ENV_CHAINS, else its defaults), each from its preset and its
 * variables (see describedChain), and for every listed token: `TOKEN_<chain_id>_<TICKER>=<address>`
 * (required where neither the preset nor the devnet gives one) and `FEE_ON_TRANSFER_<chain_id>_<TICKER>=true`
 * (the token may keep part of a transfer).
 */
export function chainRegistry(environment: Environment, devnetTokenAddress: DevnetTokenAddress, env: NodeJS.ProcessEnv = process.env, check: VariableCheck = throwing): ChainInfo[] {
  const ids = check(() => environmentChainIds(environment, env)) ?? [...DEFAULT_ENV_CHAINS[environment]];
  return ids.map((chainId) => {
    const { tokens, ...chain } = describedChain(chainId, env, check);
    return {
      ...chain,
      tokens: tokens.map((token) => {
        const tokenVariable = `TOKEN_${chainId}_${token.ticker}`;
        const configured = check(() => tokenOverride(tokenVariable, env[tokenVariable]));
        const known = token.address ?? (chain.devnetPort !== undefined ? devnetTokenAddress(chainId, token.ticker, token.decimals) : undefined);
        return {
          ticker: token.ticker,
          decimals: token.decimals,
          address: configured ?? known ?? check(() => fail(`${tokenVariable} is required: the address of ${token.ticker}'s contract on chain ${chainId}`)) ?? "",
          feeOnTransfer: check(() => feeOnTransferFlag(`FEE_ON_TRANSFER_${chainId}_${token.ticker}`, env[`FEE_ON_TRANSFER_${chainId}_${token.ticker}`])) ?? false,
        };
      }),
    };
  });
}

/** Lower-case addresses of a chain's tokens marked FEE_ON_TRANSFER_, as the chain-sender looks them up. */
export function feeOnTransferTokens(chain: Pick<ChainInfo, "tokens">): ReadonlySet<string> {
  return new Set(chain.tokens.filter((t) => t.feeOnTransfer).map((t) => t.address.toLowerCase()));
}

/** `RPC_URL_<chain_id>` names a chain's real nodes (comma-separated, tried in order); otherwise the local anvil of that chain. */
export function rpcUrlsFor(chain: Pick<ChainInfo, "chainId" | "devnetPort">, env: NodeJS.ProcessEnv = process.env): string[] {
  const variable = `RPC_URL_${chain.chainId}`;
  const configured = env[variable];
  if (configured) return parseRpcUrls(variable, configured);
  if (chain.devnetPort === undefined) throw new Error(`${variable} is required: chain ${chain.chainId} has no local devnet`);
  return [`http://127.0.0.1:${chain.devnetPort}`];
}
