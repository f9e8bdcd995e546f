import type { ChainTariff } from "@sweep/fees";
import { deploymentOutcome, settleFailedAttempt, settleSweepBatch, type BatchItemResult, type OpenSweep, type Receipt, type SweepSettlement } from "./outcomes";

const now = new Date("2026-11-21T00:00:00Z");
const tariff: ChainTariff = {
  chainId: 97,
  rateBps: 7000,
  nativeMarkupBps: 1000,
  classicGas: { USDT: { new: 60_000n, existing: 50_000n }, tBNB: { new: 21_000n, existing: 21_000n } },
  extraGas: { delegation: 12_500n, account: 12_500n },
};
const PRICE = 3n;
const receipt = (succeeded: boolean, gasUsed = 110_000n, l1Fee = 0n, minimumL1Fee = 0n): Receipt => ({ hash: "0xabc", succeeded, gasUsed, effectiveGasPrice: PRICE, l1Fee, minimumL1Fee });
const token = (id: string, attempts = 1): OpenSweep => ({ id, attempts, token: "USDT", native: false });

// direct gas 18,000 / 32,500 / 45,000; of 110,000 the shares are 20,733 / 37,435 / 51,832 (see gas-split.test.ts)
const items: BatchItemResult[] = [
  { position: 2, sweepId: "c", kind: "first_new", withAuthorization: true, outcome: "TokenTransferFailed", amount: null, gasUsed: 20_000n },
  { position: 0, sweepId: "a", kind: "repeat", withAuthorization: false, outcome: "swept", amount: 1_000_000n, gasUsed: 18_000n },
  { position: 1, sweepId: "b", kind: "first", withAuthorization: true, outcome: "swept", amount: 5n, gasUsed: 20_000n },
];

function settle(overrides: Partial<Parameters<typeof settleSweepBatch>[0]> = {}): SweepSettlement[] {
  return settleSweepBatch({ receipt: receipt(true), items, openSweeps: [token("a"), token("b"), token("c")], tariff, maxAttempts: 5, now, ...overrides });
}

describe("settling a confirmed sweep batch", () => {
  it("sweeps and fails each open sweep by its item, with its gas share, cost and fee", () => {
    expect(settle()).toEqual([
      // 0.7 × 50,000 − 20,733 = 14,267 gas saved
      { sweepId: "a", outcome: "swept", sweptAmount: 1_000_000n, onChain: { txHash: "0xabc", kind: "repeat", gas: 20_733n, gasCost: 62_199n }, fee: { fee: 14_267n * PRICE, classicGas: 50_000n, rateBps: 7000 } },
      // 35,000 − 37,435 < 0: no fee
      { sweepId: "b", outcome: "swept", sweptAmount: 5n, onChain: { txHash: "0xabc", kind: "first", gas: 37_435n, gasCost: 112_305n }, fee: { fee: 0n, classicGas: 50_000n, rateBps: 7000 } },
      { sweepId: "c", outcome: "failed", reason: "TokenTransferFailed", onChain: { txHash: "0xabc", kind: "first_new", gas: 51_832n, gasCost: 155_496n } },
    ]);
  });

  it("adds each item's share of an L1 data fee, split as the gas is, to its cost, and counts it against the saving", () => {
    // 9,550 wei over direct gas 18,000 / 32,500 / 45,000: 1,800 / 3,250 / 4,500
    const [a, b, c] = settle({ receipt: receipt(true, 110_000n, 9_550n) });
    expect([a!, b!, c!].map((s) => ("onChain" in s ? s.onChain.gasCost : null))).toEqual([62_199n + 1_800n, 112_305n + 3_250n, 155_496n + 4_500n]);
    // 0.7 × 50,000 × 3 − 63,999 wei
    expect(a).toMatchObject({ fee: { fee: 105_000n - 63_999n } });
  });

  it("counts the block's least L1 fee twice in the classic benchmark, once per classic transaction", () => {
    const [a] = settle({ receipt: receipt(true, 110_000n, 9_550n, 1_000n) });
    // 0.7 × (50,000 × 3 + 2 × 1,000) − 63,999 wei
    expect(a).toMatchObject({ fee: { fee: 106_400n - 63_999n } });
  });

  it("splits an L1 data fee exactly to the wei, the odd wei to the largest remainders", () => {
    const settled = settle({ receipt: receipt(true, 110_000n, 10_001n) });
    const l1Shares = settled.map((s, i) => ("onChain" in s ? s.onChain.gasCost - [62_199n, 112_305n, 155_496n][i]! : 0n));
    expect(l1Shares).toEqual([1_885n, 3_403n, 4_713n]);
    expect(l1Shares.reduce((x, y) => x + y)).toBe(10_001n);
  });

  it("splits over every carried item even when some were settled before, so a redelivery computes the same shares", () => {
    const [only] = settle({ openSweeps: [token("b")] });
    expect(only).toMatchObject({ sweepId: "b", onChain: { gas: 37_435n } });
  });

  it("leaves items the transaction did not carry (no outcome) out of the split", () => {
    const dropped: BatchItemResult = { position: 3, sweepId: "d", kind: "repeat", withAuthorization: false, outcome: null, amount: null, gasUsed: null };
    const withDropped = settle({ items: [...items, dropped] });
    expect(withDropped).toEqual(settle());
  });

  it("charges a native sweep the markup on its gas under the native benchmark", () => {
    const [native] = settle({ receipt: receipt(true, 15_000n), items: [{ ...items[1]!, gasUsed: 14_000n }], openSweeps: [{ id: "a", attempts: 1, token: "tBNB", native: true }] });
    expect(native).toMatchObject({ outcome: "swept", onChain: { gas: 15_000n, gasCost: 45_000n }, fee: { fee: 1_500n * PRICE, classicGas: 21_000n, rateBps: 1000 } });
  });

  it("uses the new benchmark for a swept first_new item", () => {
    const [firstNew] = settle({ receipt: receipt(true, 40_000n), items: [{ ...items[0]!, outcome: "swept", amount: 7n }], openSweeps: [token("c")] });
    // 0.7 × 60,000 − 40,000 = 2,000 gas saved
    expect(firstNew).toMatchObject({ outcome: "swept", fee: { fee: 2_000n * PRICE, classicGas: 60_000n } });
  });

  it("fails an item of an address that no longer delegates to the delegate (Unauthorized): no swept amount, no fee, its gas share still the transaction's", () => {
    const [redelegated] = settle({ items: [items[0]!, { ...items[1]!, outcome: "Unauthorized", amount: null }, items[2]!], openSweeps: [token("a")] });
    expect(redelegated).toEqual({ sweepId: "a", outcome: "failed", reason: "Unauthorized", onChain: { txHash: "0xabc", kind: "repeat", gas: 20_733n, gasCost: 62_199n } });
  });

  it("fails the attempt (internal) of an open sweep the transaction did not carry", () => {
    const [stray] = settle({ openSweeps: [token("x", 2)] });
    expect(stray).toEqual({ sweepId: "x", outcome: "attempt_failed", next: { status: "queued", reason: "internal", nextAttemptAt: new Date(now.getTime() + 10_000) } });
  });

  it.each([
    ["its sweep", { sweepId: null }],
    ["its kind", { kind: null }],
    ["its gas", { gasUsed: null }],
    ["the amount it swept", { amount: null }],
  ])("refuses a carried item without %s", (_what, broken) => {
    expect(() => settle({ items: [{ ...items[1]!, ...broken }] })).toThrow(/position 0/);
  });
});

describe("settling a failed attempt", () => {
  it("a failed receipt is an attempt failure transaction_reverted for every open sweep, final when attempts ran out", () => {
    expect(settle({ receipt: receipt(false), openSweeps: [token("a", 1), token("b", 5)] })).toEqual([
      { sweepId: "a", outcome: "attempt_failed", next: { status: "queued", reason: "transaction_reverted", nextAttemptAt: new Date(now.getTime() + 5_000) } },
      { sweepId: "b", outcome: "attempt_failed", next: { status: "failed", reason: "transaction_reverted" } },
    ]);
  });

  it.each([
    [1, "queued", 5_000],
    [3, "queued", 20_000],
    [5, "failed", undefined],
  ] as const)("after attempt %i of 5 the sweep is %s", (attempts, status, pause) => {
    const [settlement] = settleFailedAttempt([{ id: "a", attempts }], "insufficient_gas_balance", 5, now);
    expect(settlement).toEqual({
      sweepId: "a",
      outcome: "attempt_failed",
      next: pause === undefined ? { status, reason: "insufficient_gas_balance" } : { status, reason: "insufficient_gas_balance", nextAttemptAt: new Date(now.getTime() + pause) },
    });
  });
});

describe("outcome of a delegate deployment", () => {
  it.each([
    [true, true, { status: "active" }],
    [true, false, { status: "active" }],
    [false, true, { status: "failed", error: "not_deployed" }],
    [false, false, { status: "failed", error: "transaction_reverted" }],
  ])("code at the delegate %s, receipt succeeded %s", (hasCode, succeeded, outcome) => {
    expect(deploymentOutcome(hasCode, succeeded)).toEqual(outcome);
  });
});
