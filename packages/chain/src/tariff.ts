import { z } from "zod";

/** Gas of the classic way for one asset: a top-up transaction plus the deposit address's own transfer. */
export interface ClassicGas {
  /** an address without an account on the chain, which the top-up creates (tokens only) */
  new: bigint;
  /** an address with an account */
  existing: bigint;
}

export interface ChainTariff {
  chainId: number;
  /** token sweeps: X in basis points; 0 means no fee */
  rateBps: number;
  /** native coin sweeps: markup on the sweep's gas, basis points */
  nativeMarkupBps: number;
  /** keyed by token ticker or native ticker; absent on a chain without benchmarks */
  classicGas?: Record<string, ClassicGas>;
  extraGas?: { delegation: bigint; account: bigint };
}

/**
 * EIP-7702 charges 25,000 per authorization and refunds 12,500 when the account exists: a first
 * sweep bears the 12,500, and one that creates the account the other 12,500 (the protocol's
 * figures, not anvil's, which refunds for missing accounts too; see ENVIRONMENT.md).
 */
export const EIP7702_EXTRA_GAS = { delegation: 12_500n, account: 12_500n } as const;

/** The plain native transfer that caps the native fee. */
export const NATIVE_TRANSFER_GAS = 21_000n;

const bps = z.coerce.number().int().min(0).max(1_000_000);

/**
 * The configured tariff of the environment's chains. Benchmarks were measured on the local chains
 * against the deployed devnet USDT (`pnpm bench`: 21,000 top-up + 29,547 transfer); rates come
 * from `RATE_BPS_<chain_id>` and `NATIVE_MARKUP_BPS_<chain_id>` (defaults 7000 and 1000).
 */
export function configuredTariffs(chains: Array<{ chainId: number; nativeTicker: string; tokens: Array<{ ticker: string }> }>, env: NodeJS.ProcessEnv = process.env): ChainTariff[] {
  return chains.map((chain) => {
    const classicGas: Record<string, ClassicGas> = { [chain.nativeTicker]: { new: NATIVE_TRANSFER_GAS, existing: NATIVE_TRANSFER_GAS } };
    for (const token of chain.tokens) classicGas[token.ticker] = { new: 50_547n, existing: 50_547n };
    return {
      chainId: chain.chainId,
      rateBps: bps.parse(env[`RATE_BPS_${chain.chainId}`] ?? 7000),
      nativeMarkupBps: bps.parse(env[`NATIVE_MARKUP_BPS_${chain.chainId}`] ?? 1000),
      classicGas,
      extraGas: { ...EIP7702_EXTRA_GAS },
    };
  });
}
