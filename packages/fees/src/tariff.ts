import { z } from "zod";
import type { VariableCheck } from "@sweep/common";

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

function basisPoints(variable: string, env: NodeJS.ProcessEnv, fallback: number): number {
  const value = env[variable];
  if (!value) return fallback;
  const parsed = bps.safeParse(value);
  if (!parsed.success) throw new Error(`${variable} must be a whole number of basis points from 0 to 1000000`);
  return parsed.data;
}

/**
 * What `pnpm sweepctl tariff measure` printed on the development machine: the devnet USDT's
 * classic sweep on a fresh anvil of each testnet chain (21,000 top-up + 29,547 transfer on
 * 11155111, + 29,583 on 97, whose 18 decimals put more non-zero bytes into the calldata). The
 * top-up of an address without an account costs no more than one with an account: a transaction
 * that creates its recipient pays no surcharge, only a CALL would.
 */
export const MEASURED_CLASSIC_GAS: Readonly<Record<number, Readonly<Record<string, ClassicGas>>>> = {
  11155111: { USDT: { new: 50_547n, existing: 50_547n } },
  97: { USDT: { new: 50_583n, existing: 50_583n } },
};

/** The variable that configures a token's classic benchmark on a chain: `<new>,<existing>` gas. */
export function classicGasVariable(chainId: number, ticker: string): string {
  return `CLASSIC_GAS_${chainId}_${ticker}`;
}

export function formatClassicGas(gas: ClassicGas): string {
  return `${gas.new},${gas.existing}`;
}

const INT64_MAX = (1n << 63n) - 1n;

/** `<new>,<existing>`: whole numbers of gas above zero, creating the account never the cheaper one. */
export function parseClassicGas(variable: string, value: string): ClassicGas {
  const match = /^([0-9]+),([0-9]+)$/.exec(value);
  const gas = match && { new: BigInt(match[1]!), existing: BigInt(match[2]!) };
  if (!gas || gas.existing <= 0n || gas.new > INT64_MAX || gas.new < gas.existing) {
    throw new Error(`${variable} takes <new>,<existing>: two whole numbers of gas above zero, new not below existing; got ${JSON.stringify(value)}`);
  }
  return gas;
}

/**
 * The configured tariff of the environment's chains. A listed token's classic benchmark comes
 * from `CLASSIC_GAS_<chain_id>_<TICKER>`, else from MEASURED_CLASSIC_GAS; a chain with neither for
 * any of its tokens has no benchmarks (and its token sweeps carry no fee). The native coin's
 * benchmark is the plain transfer. Rates come from `RATE_BPS_<chain_id>` and
 * `NATIVE_MARKUP_BPS_<chain_id>` (defaults 7000 and 1000).
 */
export function configuredTariffs(
  chains: Array<{ chainId: number; nativeTicker: string; tokens: Array<{ ticker: string }> }>,
  env: NodeJS.ProcessEnv = process.env,
  check: VariableCheck = (read) => read(),
): ChainTariff[] {
  return chains.map((chain) => {
    const rates = {
      chainId: chain.chainId,
      rateBps: check(() => basisPoints(`RATE_BPS_${chain.chainId}`, env, 7000)) ?? 7000,
      nativeMarkupBps: check(() => basisPoints(`NATIVE_MARKUP_BPS_${chain.chainId}`, env, 1000)) ?? 1000,
    };
    const tokenGas = chain.tokens.flatMap((token) => {
      const variable = classicGasVariable(chain.chainId, token.ticker);
      const configured = env[variable];
      const gas = configured ? check(() => parseClassicGas(variable, configured)) : MEASURED_CLASSIC_GAS[chain.chainId]?.[token.ticker];
      return gas ? [[token.ticker, { ...gas }] as const] : [];
    });
    if (tokenGas.length === 0) return rates;
    return {
      ...rates,
      classicGas: { [chain.nativeTicker]: { new: NATIVE_TRANSFER_GAS, existing: NATIVE_TRANSFER_GAS }, ...Object.fromEntries(tokenGas) },
      extraGas: { ...EIP7702_EXTRA_GAS },
    };
  });
}
