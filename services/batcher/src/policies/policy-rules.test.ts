import { nextRunAfter, policyHold, type PolicyItem, type PolicyMarket, type PolicyRules, type Schedule } from "./policy-rules";

const GWEI = 1_000_000_000n;

describe("nextRunAfter", () => {
  it.each<[string, Exclude<Schedule, { kind: "asap" }>, string, string]>([
    ["hourly at :15, before it", { kind: "hourly", minute: 15 }, "2026-11-28T10:05:00.000Z", "2026-11-28T10:15:00.000Z"],
    ["hourly at :15, after it", { kind: "hourly", minute: 15 }, "2026-11-28T10:20:00.000Z", "2026-11-28T11:15:00.000Z"],
    ["hourly at :15, at it: the next one", { kind: "hourly", minute: 15 }, "2026-11-28T10:15:00.000Z", "2026-11-28T11:15:00.000Z"],
    ["hourly at :00, across midnight", { kind: "hourly", minute: 0 }, "2026-11-28T23:59:59.999Z", "2026-11-29T00:00:00.000Z"],
    ["daily at 02:30, before it", { kind: "daily", minuteOfDay: 150 }, "2026-11-28T01:00:00.000Z", "2026-11-28T02:30:00.000Z"],
    ["daily at 02:30, after it", { kind: "daily", minuteOfDay: 150 }, "2026-11-28T12:00:00.000Z", "2026-11-29T02:30:00.000Z"],
    ["daily at 23:59, across a month", { kind: "daily", minuteOfDay: 1439 }, "2026-11-30T23:59:30.000Z", "2026-12-01T23:59:00.000Z"],
  ])("%s", (_, schedule, now, expected) => {
    expect(nextRunAfter(schedule, new Date(now)).toISOString()).toBe(expected);
  });
});

describe("policyHold", () => {
  const none: PolicyRules = { maxFeePerGas: null, maxCostBps: null, tokenValue: null };
  const market: PolicyMarket = { gasPrice: 2n * GWEI, tariff: { rateBps: 7_000, nativeMarkupBps: 1_000, classicGas: { USDT: { new: 100_000n, existing: 60_000n } } } };
  const native = (moves: bigint): PolicyItem => ({ token: "ETH", native: true, moves, kind: "repeat", gas: 30_000n });
  const usdt = (moves: bigint, kind: PolicyItem["kind"] = "repeat"): PolicyItem => ({ token: "USDT", native: false, moves, kind, gas: kind === "repeat" ? 30_000n : 60_000n });
  // 1 USDT (6 decimals) = 0.0004 ETH
  const usdtValue = { wei: 400_000_000_000_000n, decimals: 6 };

  it.each<[string, PolicyRules, PolicyItem, PolicyMarket, ReturnType<typeof policyHold>]>([
    ["no rules: never held", none, native(1n), market, null],
    ["gas price above the maximum", { ...none, maxFeePerGas: GWEI }, native(10n ** 18n), market, "waiting_for_gas_price"],
    ["gas price at the maximum", { ...none, maxFeePerGas: 2n * GWEI }, native(10n ** 18n), market, null],
    // native: gas 30,000 × 2 gwei = 60,000 gwei, markup 10% = 6,000 gwei (under the saving against 21,000 gas? no: 21,000 < 30,000 saves nothing, fee 0): cost 60,000 gwei
    ["native: cost 60,000 gwei at 1% of 6,000,000 gwei: exactly the limit", { ...none, maxCostBps: 100 }, native(6_000_000n * GWEI), market, null],
    ["native: a wei less moved, over the limit", { ...none, maxCostBps: 100 }, native(6_000_000n * GWEI - 1n), market, "cost_above_limit"],
    // token repeat: gas + fee = max(gas, 70% × 60,000) = 42,000 gas × 2 gwei = 84,000 gwei; 10 USDT = 0.004 ETH = 4,000,000 gwei; 2.1%
    ["token: 84,000 gwei against 10 USDT's 4,000,000 gwei, 2.1%, under 3%", { ...none, maxCostBps: 300, tokenValue: usdtValue }, usdt(10_000_000n), market, null],
    ["token: the same under 2%", { ...none, maxCostBps: 200, tokenValue: usdtValue }, usdt(10_000_000n), market, "cost_above_limit"],
    // first_new: max(60,000, 70% × 100,000) = 70,000 gas: 140,000 gwei, 3.5%
    ["token, a first sweep creating the account costs more: 3.5%", { ...none, maxCostBps: 300, tokenValue: usdtValue }, usdt(10_000_000n, "first_new"), market, "cost_above_limit"],
    ["token without its value: the cost rule holds nothing", { ...none, maxCostBps: 1 }, usdt(1n), market, null],
    ["both rules: the gas price is said first", { maxFeePerGas: 1n, maxCostBps: 1, tokenValue: null }, native(1n), market, "waiting_for_gas_price"],
    ["a free chain (gas price 0) costs nothing", { ...none, maxCostBps: 1 }, native(1n), { ...market, gasPrice: 0n }, null],
  ])("%s", (_, rules, item, at, expected) => {
    expect(policyHold(rules, item, at)).toBe(expected);
  });
});
