import { withdrawalValue } from "./withdrawal-plan";

describe("withdrawal value", () => {
  it.each([
    ["the fees due less 21,000 gas at the max fee", 10n ** 16n, 3_000_000_000n, 10n ** 16n - 63_000_000_000_000n],
    ["one wei left over the gas", 21_000n * 7n + 1n, 7n, 1n],
    ["fees due that only pay the gas", 21_000n * 7n, 7n, null],
    ["fees due below the gas", 1_000n, 7n, null],
    ["no fees due", 0n, 7n, null],
  ])("%s", (_name, feesDue, maxFeePerGas, expected) => {
    expect(withdrawalValue(feesDue, maxFeePerGas)).toBe(expected);
  });
});
