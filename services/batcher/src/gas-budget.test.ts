import { batchGasBudget, itemGas, TRANSACTION_GAS_CAP } from "./gas-budget";

describe("gas budget of a batch", () => {
  it.each([
    ["a 30M block is capped at 2^24, then the margin", 30_000_000n, 8_000, (TRANSACTION_GAS_CAP * 8_000n) / 10_000n],
    ["a smaller block limit counts", 10_000_000n, 8_000, 8_000_000n],
    ["exactly the cap", TRANSACTION_GAS_CAP, 10_000, TRANSACTION_GAS_CAP],
    ["a tiny test chain", 600_000n, 8_000, 480_000n],
  ])("%s", (_what, blockGasLimit, marginBps, expected) => {
    expect(batchGasBudget(blockGasLimit, marginBps)).toBe(expected);
  });

  it("an item carrying an authorization is planned at twice a plain one", () => {
    expect(itemGas(true)).toBe(2n * itemGas(false));
  });
});
