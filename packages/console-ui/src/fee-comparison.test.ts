import { compareFee } from "./fee-comparison";

describe("a sweep's fee against the classic benchmark", () => {
  it("prices the benchmark at the batch's gas price and counts what is saved", () => {
    // 40,000 gas at 1 gwei; classic 100,000 gas; fee at 70%: 0.7 × 100,000 − 40,000 = 30,000 gas.
    expect(compareFee({ gas: 40_000, gas_cost: "40000000000000", fee: "30000000000000", classic_gas: 100_000 })).toEqual({
      gasPrice: 1_000_000_000n,
      classicCost: 100_000_000_000_000n,
      gasCost: 40_000_000_000_000n,
      fee: 30_000_000_000_000n,
      total: 70_000_000_000_000n,
      saved: 30_000_000_000_000n,
    });
  });

  it.each([
    [{ gas: 40_000, gas_cost: "40000000000000", classic_gas: 100_000 }],
    [{ gas: 0, gas_cost: "0", fee: "0", classic_gas: 100_000 }],
    [{}],
  ])("is undefined without every figure: %j", (sweep) => {
    expect(compareFee(sweep)).toBeUndefined();
  });
});
