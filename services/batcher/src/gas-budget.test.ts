import { BATCH_BASE_GAS, batchGasBudget, feeCapGasBudget, fittingItems, ITEM_GAS, ITEM_GAS_WITH_AUTHORIZATION, itemGas, plannedGasBudget, TRANSACTION_GAS_CAP } from "./gas-budget";

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

describe("gas budget under the fee cap (TX_FEE_CAP_<id>)", () => {
  const gwei = 1_000_000_000n;
  const coin = 10n ** 18n;
  it.each([
    ["1 coin at a 10 gwei base fee: 50M gas at twice the base fee, then the margin", coin, 10n * gwei, 8_000, 40_000_000n],
    ["1 coin at 100 gwei: 5M gas, then the margin", coin, 100n * gwei, 8_000, 4_000_000n],
    ["a tenth of a coin at 100 gwei", coin / 10n, 100n * gwei, 10_000, 500_000n],
    ["no base fee: no bound", coin, 0n, 8_000, null],
  ])("%s", (_what, cap, baseFee, marginBps, expected) => {
    expect(feeCapGasBudget(cap, baseFee, marginBps)).toBe(expected);
  });

  it.each([
    ["a calm 30M-gas mainnet block: the transaction cap binds", { gasLimit: 30_000_000n, baseFee: 10n * gwei }, coin, (TRANSACTION_GAS_CAP * 8_000n) / 10_000n],
    ["the issue's 16.7M-gas batch above ~29 gwei: the fee cap binds", { gasLimit: 30_000_000n, baseFee: 40n * gwei }, coin, 10_000_000n],
    ["a lower configured cap binds sooner", { gasLimit: 30_000_000n, baseFee: 10n * gwei }, coin / 100n, 400_000n],
    ["no base fee: the block's budget", { gasLimit: 30_000_000n, baseFee: 0n }, 1n, (TRANSACTION_GAS_CAP * 8_000n) / 10_000n],
  ])("%s", (_what, block, cap, expected) => {
    expect(plannedGasBudget(block, cap, 8_000)).toBe(expected);
  });
});

describe("due sweeps a claim reads: those that fit one batch at the most each can cost", () => {
  const capped = (TRANSACTION_GAS_CAP * 8_000n) / 10_000n;
  it.each<[string, boolean[], bigint, number]>([
    ["nothing due", [], capped, 0],
    ["exactly two with an authorization", [true, true, true], BATCH_BASE_GAS + 2n * ITEM_GAS_WITH_AUTHORIZATION, 2],
    ["a plain item costs half", [false, true, false], BATCH_BASE_GAS + 2n * ITEM_GAS + ITEM_GAS_WITH_AUTHORIZATION, 3],
    ["in order: a later cheaper item does not jump the one that does not fit", [false, true, false], BATCH_BASE_GAS + ITEM_GAS, 1],
    ["one always, even over the budget", [true], 0n, 1],
    ["the 2^24 cap with the 80% margin: first-time sweeps", Array<boolean>(500).fill(true), capped, 218],
    ["the same: repeat sweeps", Array<boolean>(500).fill(false), capped, 436],
  ])("%s", (_what, withAuthorization, budget, expected) => {
    expect(fittingItems(withAuthorization, budget)).toBe(expected);
  });
});
