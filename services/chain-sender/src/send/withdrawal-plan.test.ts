import { drainValue, withdrawalValue } from "./withdrawal-plan";

describe("withdrawal value", () => {
  it.each([
    ["the fees due less 21,000 gas at the max fee", 10n ** 16n, 3_000_000_000n, 10n ** 16n - 63_000_000_000_000n],
    ["one wei left over the gas", 21_000n * 7n + 1n, 7n, 1n],
    ["fees due that only pay the gas", 21_000n * 7n, 7n, null],
    ["fees due below the gas", 1_000n, 7n, null],
    ["no fees due", 0n, 7n, null],
    ["an L1 data fee reserve comes out of the fees due too", 21_000n * 7n + 1_001n, 7n, 1n, 1_000n],
    ["fees due that only pay the gas and the L1 reserve", 21_000n * 7n + 1_000n, 7n, null, 1_000n],
    // Arbitrum counts the transfer's L1 calldata in its gas: the estimate, not 21,000
    ["a gas limit above 21,000 leaves less", 10n ** 16n, 3_000_000_000n, 10n ** 16n - 300_000n * 3_000_000_000n, 0n, 300_000n],
  ])("%s", (_name, feesDue, maxFeePerGas, expected, l1Reserve = 0n, gasLimit = 21_000n) => {
    expect(withdrawalValue(feesDue, gasLimit, maxFeePerGas, l1Reserve)).toBe(expected);
  });
});

describe("drain value", () => {
  it.each([
    ["the whole balance less the gas", { balance: 10n ** 18n, feesDue: 0n, inFlightCost: 0n }, 21_000n, 5n, 10n ** 18n - 105_000n],
    ["fees due stay on the wallet", { balance: 1_000_000n, feesDue: 400_000n, inFlightCost: 0n }, 21_000n, 5n, 495_000n],
    ["what transactions in flight may cost stays too", { balance: 1_000_000n, feesDue: 0n, inFlightCost: 300_000n }, 21_000n, 5n, 595_000n],
    ["a recipient that costs more gas leaves less", { balance: 1_000_000n, feesDue: 0n, inFlightCost: 0n }, 30_000n, 5n, 850_000n],
    ["a balance that only pays the gas", { balance: 105_000n, feesDue: 0n, inFlightCost: 0n }, 21_000n, 5n, null],
    ["an empty wallet", { balance: 0n, feesDue: 0n, inFlightCost: 0n }, 21_000n, 5n, null],
    ["the L1 data fee reserve stays too", { balance: 1_000_000n, feesDue: 0n, inFlightCost: 0n }, 21_000n, 5n, 894_000n, 1_000n],
    ["a balance that only pays the gas and the L1 reserve", { balance: 106_000n, feesDue: 0n, inFlightCost: 0n }, 21_000n, 5n, null, 1_000n],
  ])("%s", (_name, wallet, gasLimit, maxFeePerGas, expected, l1Reserve = 0n) => {
    expect(drainValue(wallet, gasLimit, maxFeePerGas, l1Reserve)).toBe(expected);
  });
});
