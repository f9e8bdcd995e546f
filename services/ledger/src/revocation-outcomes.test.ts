import type { Receipt } from "./outcomes";
import {
  settleFailedRevocationAttempt,
  settleRevocationBatch,
  type OpenRevocation,
  type RevocationItemResult,
  type RevocationSettlement,
} from "./revocation-outcomes";

const now = new Date("2026-11-21T00:00:00Z");
const MAX = (1n << 256n) - 1n;
const PRICE = 3n;
const receipt = (succeeded: boolean, gasUsed = 100_001n, effectiveGasPrice = PRICE, l1Fee = 0n): Receipt => ({ hash: "0xabc", succeeded, gasUsed, effectiveGasPrice, l1Fee, minimumL1Fee: 0n });
const open = (id: string, attempts = 1): OpenRevocation => ({ id, attempts });

// listed out of position order: the split goes by position
const items: RevocationItemResult[] = [
  { position: 2, revocationId: "c", outcome: "revoked" },
  { position: 0, revocationId: "a", outcome: "revoked" },
  { position: 1, revocationId: "b", outcome: "not_applied" },
];

function settle(overrides: Partial<Parameters<typeof settleRevocationBatch>[0]> = {}): RevocationSettlement[] {
  return settleRevocationBatch({ receipt: receipt(true), items, openRevocations: [open("a"), open("b"), open("c")], maxAttempts: 5, now, ...overrides });
}

const onChain = (gas: bigint, price = PRICE) => ({ txHash: "0xabc", gas, gasCost: gas * price });

describe("settling a confirmed revocation batch", () => {
  it("splits an L1 data fee evenly too, the first by position taking the wei left over, and adds each share to its cost", () => {
    const costs = settle({ receipt: receipt(true, 99_000n, PRICE, 1_000_001n) }).map((s) => ("onChain" in s ? s.onChain.gasCost : null));
    expect(costs).toEqual([33_000n * PRICE + 333_334n, 33_000n * PRICE + 333_334n, 33_000n * PRICE + 333_333n]);
  });

  it("revokes and fails each open revocation by its item; 100,001 gas over three: the first two by position take the two units left", () => {
    expect(settle()).toEqual([
      { revocationId: "a", outcome: "revoked", onChain: onChain(33_334n) },
      { revocationId: "b", outcome: "failed", reason: "not_applied", onChain: onChain(33_334n) },
      { revocationId: "c", outcome: "revoked", onChain: onChain(33_333n) },
    ]);
  });

  it.each<[string, RevocationItemResult[], bigint, bigint, bigint[]]>([
    ["one revocation bears the whole receipt", [{ position: 0, revocationId: "a", outcome: "revoked" }], 46_000n, PRICE, [46_000n]],
    ["divisible gas: equal shares", items, 99_000n, PRICE, [33_000n, 33_000n, 33_000n]],
    ["one unit left: the first by position", items, 100_000n, PRICE, [33_334n, 33_333n, 33_333n]],
    ["a gas price near 2^256, to the wei", items, 60_001n, MAX / 100_000n, [20_001n, 20_000n, 20_000n]],
  ])("%s", (_what, batchItems, gasUsed, price, shares) => {
    const carried = [...batchItems].sort((x, y) => x.position - y.position);
    const settlements = settle({ receipt: receipt(true, gasUsed, price), items: batchItems, openRevocations: carried.map((item) => open(item.revocationId!)) });
    expect(settlements.map((s) => (s.outcome === "attempt_failed" ? null : s.onChain))).toEqual(shares.map((gas) => onChain(gas, price)));
    expect(shares.reduce((x, y) => x + y)).toBe(gasUsed);
  });

  it("splits over every carried item even when some were settled before, so a redelivery computes the same shares", () => {
    expect(settle({ openRevocations: [open("c")] })).toEqual([{ revocationId: "c", outcome: "revoked", onChain: onChain(33_333n) }]);
  });

  it("leaves items the transaction did not carry (no outcome) out of the split, and fails their attempt (internal)", () => {
    const undecided: RevocationItemResult = { position: 3, revocationId: "d", outcome: null };
    const [a, b, c, d] = settle({ items: [...items, undecided], openRevocations: [open("a"), open("b"), open("c"), open("d", 2)] });
    expect([a, b, c]).toEqual(settle());
    expect(d).toEqual({ revocationId: "d", outcome: "attempt_failed", next: { status: "queued", reason: "internal", nextAttemptAt: new Date(now.getTime() + 10_000) } });
  });

  it("a failed receipt fails the attempt (transaction_reverted) of every revocation without an outcome, final when attempts ran out", () => {
    const undecided = [
      { position: 0, revocationId: "a", outcome: null },
      { position: 1, revocationId: "b", outcome: null },
    ];
    expect(settle({ receipt: receipt(false), items: undecided, openRevocations: [open("a", 1), open("b", 5)] })).toEqual([
      { revocationId: "a", outcome: "attempt_failed", next: { status: "queued", reason: "transaction_reverted", nextAttemptAt: new Date(now.getTime() + 5_000) } },
      { revocationId: "b", outcome: "attempt_failed", next: { status: "failed", reason: "transaction_reverted" } },
    ]);
  });

  it("settles an item's outcome even when the receipt failed: the authorization stays applied", () => {
    expect(settle({ receipt: receipt(false) })).toEqual(settle());
  });

  it.each([
    ["its revocation", { revocationId: null }, /no revocation/],
    ["a known outcome", { outcome: "swept" }, /unknown revocation outcome swept/],
  ])("refuses a carried item without %s", (_what, broken, message) => {
    expect(() => settle({ items: [{ ...items[1]!, ...broken }] })).toThrow(message);
  });
});

describe("settling a failed revocation attempt", () => {
  it.each([
    [1, "queued", 5_000],
    [3, "queued", 20_000],
    [5, "failed", undefined],
  ] as const)("after attempt %i of 5 the revocation is %s", (attempts, status, pause) => {
    expect(settleFailedRevocationAttempt([open("a", attempts)], "insufficient_gas_balance", 5, now)).toEqual([
      {
        revocationId: "a",
        outcome: "attempt_failed",
        next: pause === undefined ? { status, reason: "insufficient_gas_balance" } : { status, reason: "insufficient_gas_balance", nextAttemptAt: new Date(now.getTime() + pause) },
      },
    ]);
  });
});

