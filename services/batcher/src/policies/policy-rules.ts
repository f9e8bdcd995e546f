import { sweepFee, type ChainTariff, type SweepKind } from "@sweep/fees";

/**
 * A sweep policy's rules, pure: when its schedule opens a window, and whether one of its sweeps may
 * go in a batch now (its gas price and cost rules), decided at the claim with the balances and the
 * gas price the batch is made from.
 */

const BPS = 10_000n;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export type Schedule = { kind: "asap" } | { kind: "hourly"; minute: number } | { kind: "daily"; minuteOfDay: number };

/** The first window of a scheduled policy strictly after `now` (UTC): minute `minute` of an hour, or minute `minuteOfDay` of a day. */
export function nextRunAfter(schedule: Exclude<Schedule, { kind: "asap" }>, now: Date): Date {
  const [period, offset] = schedule.kind === "hourly" ? [HOUR_MS, schedule.minute * MINUTE_MS] : [DAY_MS, schedule.minuteOfDay * MINUTE_MS];
  const start = Math.floor((now.getTime() - offset) / period) * period + offset;
  return new Date(start + period);
}

/** A policy's rules on its sweeps' sending; null where the partner set none. */
export interface PolicyRules {
  /** wei per gas: the batch's base fee and tip above it hold the sweep */
  maxFeePerGas: bigint | null;
  /** basis points of the amount's value the sweep's gas and fee may cost */
  maxCostBps: number | null;
  /** for a token: wei of the native coin per whole token, and the token's decimals */
  tokenValue: { wei: bigint; decimals: number } | null;
}

/** Whether the policy has a rule on sending: without one its sweeps go as a partner's do. */
export function hasRules(rules: PolicyRules): boolean {
  return rules.maxFeePerGas !== null || rules.maxCostBps !== null;
}

/** Why a policy's sweep waits queued: the spec's reasons while queued. */
export type PolicyHold = "waiting_for_gas_price" | "cost_above_limit";

/** One item as the plan would send it. */
export interface PolicyItem {
  token: string;
  native: boolean;
  /** what it moves to the hot wallet */
  moves: bigint;
  kind: SweepKind;
  /** the gas planned for it */
  gas: bigint;
}

/** The chain's price of gas for the batch (base fee and tip) and the partner's tariff. */
export interface PolicyMarket {
  gasPrice: bigint;
  tariff: Pick<ChainTariff, "rateBps" | "nativeMarkupBps" | "classicGas">;
}

/**
 * Whether a policy's sweep waits instead of going in the batch: the gas price above its maximum, or
 * the item's gas and fee (as the ledger would book them at that price, at the gas planned, an upper
 * bound) above its share of what the item moves, valued in the native coin. A token's cost rule
 * without the token's value holds nothing (the API refuses such a policy).
 */
export function policyHold(rules: PolicyRules, item: PolicyItem, market: PolicyMarket): PolicyHold | null {
  if (rules.maxFeePerGas !== null && market.gasPrice > rules.maxFeePerGas) return "waiting_for_gas_price";
  if (rules.maxCostBps === null) return null;
  const value = item.native ? item.moves : rules.tokenValue ? (item.moves * rules.tokenValue.wei) / 10n ** BigInt(rules.tokenValue.decimals) : null;
  if (value === null) return null;
  const { fee } = sweepFee(market.tariff, { token: item.token, native: item.native, kind: item.kind, gas: item.gas, gasPrice: market.gasPrice, l1Fee: 0n, minimumL1Fee: 0n });
  const cost = item.gas * market.gasPrice + fee;
  return cost * BPS > value * BigInt(rules.maxCostBps) ? "cost_above_limit" : null;
}
