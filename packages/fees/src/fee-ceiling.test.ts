import { configuredFeeCeiling, effectiveFeeCeiling, gasPriceVerdict, offeredTip, type FeeCeiling } from "./fee-ceiling";

const gwei = 1_000_000_000n;
const throwing = <T>(read: () => T) => read();

describe("fee ceilings", () => {
  it("reads both variables of a chain, else its defaults, and says which were set", () => {
    expect(configuredFeeCeiling(97, {}, throwing)).toEqual({ maxFeePerGas: 20n * gwei, maxPriorityFeePerGas: 10n * gwei, configured: { maxFeePerGas: false, maxPriorityFeePerGas: false } });
    expect(configuredFeeCeiling(97, { MAX_FEE_PER_GAS_97: "5000000000" }, throwing)).toEqual({
      maxFeePerGas: 5n * gwei,
      maxPriorityFeePerGas: 10n * gwei,
      configured: { maxFeePerGas: true, maxPriorityFeePerGas: false },
    });
  });

  it("demands both variables of a chain without defaults (one added by configuration)", () => {
    expect(() => configuredFeeCeiling(777001, { MAX_PRIORITY_FEE_PER_GAS_777001: "1" }, throwing)).toThrow(/^MAX_FEE_PER_GAS_777001 is required: chain 777001 has no default ceiling on the fee per gas, in wei$/);
    expect(() => configuredFeeCeiling(777001, { MAX_FEE_PER_GAS_777001: "2" }, throwing)).toThrow(/^MAX_PRIORITY_FEE_PER_GAS_777001 is required: chain 777001 has no default ceiling on the tip per gas, in wei$/);
    expect(configuredFeeCeiling(777001, { MAX_FEE_PER_GAS_777001: "2", MAX_PRIORITY_FEE_PER_GAS_777001: "1" }, throwing)).toEqual({
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      configured: { maxFeePerGas: true, maxPriorityFeePerGas: true },
    });
  });

  it.each(["0", "-1", "1e9", "1.5", " 1", "0x10", (1n << 256n).toString()])("refuses %p, naming the variable and not the value", (value) => {
    expect(() => configuredFeeCeiling(1, { MAX_PRIORITY_FEE_PER_GAS_1: value }, throwing)).toThrow(/^MAX_PRIORITY_FEE_PER_GAS_1 must be a whole number of wei above zero, in decimal digits$/);
  });

  it.each([
    // chain ceiling, partner's max fee, effective ceiling
    ["no partner ceiling", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, null, { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }],
    ["a lower partner ceiling wins", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, 50n, { maxFeePerGas: 50n, maxPriorityFeePerGas: 10n }],
    ["a higher one changes nothing", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, 500n, { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }],
    ["the tip never above the max fee", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, 4n, { maxFeePerGas: 4n, maxPriorityFeePerGas: 4n }],
  ])("%s", (_name, chain, partner, expected) => {
    expect(effectiveFeeCeiling(chain, partner)).toEqual(expected);
  });

  const ceiling: FeeCeiling = { maxFeePerGas: 30n * gwei, maxPriorityFeePerGas: 2n * gwei };
  it.each([
    // base fee, the node's tip (undefined: not asked yet), verdict
    ["a calm chain: sent without asking the tip", 10n * gwei, undefined, "send"],
    ["room for the whole tip ceiling, just", 28n * gwei, undefined, "send"],
    ["a base fee above the ceiling holds without asking", 31n * gwei, undefined, "hold"],
    ["between: the tip decides", 29n * gwei, undefined, "ask_tip"],
    ["a tip that still fits is sent", 29n * gwei, 1n * gwei, "send"],
    ["a tip that does not fit holds", 29n * gwei, 3n * gwei / 2n, "hold"],
    ["a suggested tip above its ceiling counts as the ceiling", 29n * gwei, 50n * gwei, "hold"],
    ["at the ceiling exactly with no tip", 30n * gwei, 0n, "send"],
  ])("%s", (_name, baseFee, tip, verdict) => {
    expect(gasPriceVerdict(ceiling, baseFee, tip)).toBe(verdict);
  });
});

describe("offeredTip", () => {
  it.each<[string, bigint, bigint, bigint]>([
    ["the node's suggestion under the ceiling", 1n, 2n, 1n],
    ["at the ceiling", 2n, 2n, 2n],
    ["the ceiling when the node suggests more", 5n, 2n, 2n],
  ])("%s", (_, suggested, ceiling, expected) => {
    expect(offeredTip(suggested, { maxPriorityFeePerGas: ceiling })).toBe(expected);
  });
});
