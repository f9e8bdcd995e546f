import type { Environment } from "@sweep/common";

/**
 * How a chain charges for a transaction beyond gas used × gas price: `l1` not at all (Ethereum, BSC);
 * `op-stack` adds an L1 data fee (OP Mainnet, Base); `arbitrum` prices L1 calldata into gas used and
 * has no public mempool.
 */
export const FEE_MODELS = ["l1", "op-stack", "arbitrum"] as const;
export type FeeModel = (typeof FEE_MODELS)[number];

/** How a chain's outcomes become final: at a depth of confirmations, or at the node's `finalized` block. */
export type Finality = "depth" | "finalized";

/** A chain's listed token as a preset knows it; without an address the token is the devnet's own deployment. */
export interface PresetToken {
  ticker: string;
  decimals: number;
  address?: string;
}

/** What the service knows of a well-known chain; every field can be overridden by configuration. */
export interface ChainPreset {
  chainId: number;
  environment: Environment;
  name: string;
  nativeTicker: string;
  /** how the chain charges beyond gas used × price (`FEE_MODEL_<chain_id>`) */
  feeModel: FeeModel;
  /** blocks on top of the receipt's block before an outcome counts as final (unless `finality` is "finalized") */
  confirmations: number;
  /**
   * "depth": final at `confirmations`; "finalized": final once the node's finalized block reaches it
   * (`CONFIRMATIONS_<chain_id>=finalized`; BSC's fast finality settles in a few blocks)
   */
  finality?: Finality;
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
  tokens: PresetToken[];
}

/**
 * The shallowest depth a mainnet chain may be configured with: below it a reorg could take back a
 * sweep already booked swept and charged. Ethereum 6 (72 s): since the merge no reorg deeper than 2
 * blocks has been seen, and 6 keeps a margin over that while the default 12 stays the advice. BSC 15
 * (under 7 s at 0.45 s blocks), its default: fast finality (BEP-126) finalizes a block within a few
 * blocks while its votes flow, and nothing here tells how deep a reorg goes while they lag.
 */
export const MAINNET_MIN_CONFIRMATIONS: Readonly<Record<number, number>> = { 1: 6, 56: 15 };

/**
 * The shallowest depth of any other mainnet chain (an L2 preset, or a chain described by its
 * variables): Ethereum's, since nothing here tells how deep its reorgs go.
 */
export const MAINNET_FLOOR_CONFIRMATIONS = 6;

/**
 * Block times: Ethereum and Sepolia make a block a 12 s slot; BSC and its testnet one every 0.45 s
 * since the Fermi hard fork (January 2026); OP-stack chains every 2 s; Arbitrum's sequencer every
 * 0.25 s. Thresholds: replacement after about 36 s on Ethereum (3 slots: a fairly priced transaction
 * is in the next one), 13.5 s on BSC, 10 s on the L2s; a refused nonce given up after about a minute.
 */
const ethereumTiming = { blockTimeMs: 12_000, replaceAfterBlocks: 3, dropAfterBlocks: 5 };
const bscTiming = { blockTimeMs: 450, replaceAfterBlocks: 30, dropAfterBlocks: 135 };
const opStackTiming = { blockTimeMs: 2_000, replaceAfterBlocks: 5, dropAfterBlocks: 30 };
const arbitrumTiming = { blockTimeMs: 250, replaceAfterBlocks: 40, dropAfterBlocks: 240 };

/**
 * The well-known chains. The testnets with a devnet port run on a local anvil unless RPC_URL_ says
 * otherwise; their USDT is the devnet's. The other L2 testnets list no token: a partner's test token is
 * listed with TOKENS_<chain_id> and TOKEN_<chain_id>_<TICKER>. Mainnet token addresses are the
 * issuers' own contracts (Tether's USDT, Circle's native USDC).
 */
export const CHAIN_PRESETS: readonly ChainPreset[] = [
  { chainId: 11155111, environment: "testnet", name: "Sepolia", nativeTicker: "ETH", feeModel: "l1", confirmations: 1, ...ethereumTiming, devnetPort: 8545, tokens: [{ ticker: "USDT", decimals: 6 }] },
  { chainId: 97, environment: "testnet", name: "BSC Testnet", nativeTicker: "tBNB", feeModel: "l1", confirmations: 1, ...bscTiming, devnetPort: 8546, tokens: [{ ticker: "USDT", decimals: 18 }] },
  // `pnpm start --with-op` runs it locally (anvil in optimism mode): ENV_CHAINS lists it then.
  { chainId: 11155420, environment: "testnet", name: "OP Sepolia", nativeTicker: "ETH", feeModel: "op-stack", confirmations: 1, ...opStackTiming, devnetPort: 8547, tokens: [{ ticker: "USDT", decimals: 6 }] },
  { chainId: 84532, environment: "testnet", name: "Base Sepolia", nativeTicker: "ETH", feeModel: "op-stack", confirmations: 1, ...opStackTiming, tokens: [] },
  { chainId: 421614, environment: "testnet", name: "Arbitrum Sepolia", nativeTicker: "ETH", feeModel: "arbitrum", confirmations: 1, ...arbitrumTiming, tokens: [] },
  {
    chainId: 1,
    environment: "mainnet",
    name: "Ethereum",
    nativeTicker: "ETH",
    feeModel: "l1",
    confirmations: 12,
    minConfirmations: MAINNET_MIN_CONFIRMATIONS[1],
    ...ethereumTiming,
    tokens: [{ ticker: "USDT", decimals: 6, address: "0xdAC17F958D2ee523a2206206994597C13D831ec7" }],
  },
  {
    chainId: 56,
    environment: "mainnet",
    name: "BNB Smart Chain",
    nativeTicker: "BNB",
    feeModel: "l1",
    confirmations: 15,
    minConfirmations: MAINNET_MIN_CONFIRMATIONS[56],
    ...bscTiming,
    tokens: [{ ticker: "USDT", decimals: 18, address: "0x55d398326f99059fF775485246999027B3197955" }],
  },
  {
    chainId: 10,
    environment: "mainnet",
    name: "OP Mainnet",
    nativeTicker: "ETH",
    feeModel: "op-stack",
    confirmations: 10,
    ...opStackTiming,
    tokens: [
      { ticker: "USDT", decimals: 6, address: "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58" },
      { ticker: "USDC", decimals: 6, address: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85" },
    ],
  },
  {
    chainId: 8453,
    environment: "mainnet",
    name: "Base",
    nativeTicker: "ETH",
    feeModel: "op-stack",
    confirmations: 10,
    ...opStackTiming,
    tokens: [{ ticker: "USDC", decimals: 6, address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }],
  },
  {
    chainId: 42161,
    environment: "mainnet",
    name: "Arbitrum One",
    nativeTicker: "ETH",
    feeModel: "arbitrum",
    confirmations: 40,
    ...arbitrumTiming,
    tokens: [
      { ticker: "USDT", decimals: 6, address: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9" },
      { ticker: "USDC", decimals: 6, address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831" },
    ],
  },
];

/** The chains of an environment when ENV_CHAINS is unset: the spec's. */
export const DEFAULT_ENV_CHAINS: Readonly<Record<Environment, readonly number[]>> = { testnet: [11155111, 97], mainnet: [1, 56] };

export function chainPreset(chainId: number): ChainPreset | undefined {
  return CHAIN_PRESETS.find((preset) => preset.chainId === chainId);
}
