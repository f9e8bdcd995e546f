import type { SweepSettlement } from "./outcomes";
import type { RevocationSettlement } from "./revocation-outcomes";
import { revocationTransition } from "./revocation-writes";
import { sweepTransition } from "./sweep-writes";

const onChain = { txHash: "0xabc", kind: "first_new" as const, gas: 56_957n, gasCost: 56_957n * 7n };
const fee = { fee: 12n, classicGas: 50_677n, rateBps: 7000 };
const later = new Date(Date.UTC(2026, 0, 1));

/** What the lifecycle is asked to write: the state, its reason, and which column groups. */
const summary = (t: ReturnType<typeof sweepTransition> | ReturnType<typeof revocationTransition>) => [t.status, t.reason, t.nextAttemptAt, t.onChain !== null, t.done];

describe("a settlement as the lifecycle applies it", () => {
  it.each<[string, SweepSettlement | RevocationSettlement, unknown[]]>([
    ["swept: the transaction's share and the amount and fee", { sweepId: "s", outcome: "swept", onChain, sweptAmount: 5n, fee }, ["swept", null, null, true, { sweptAmount: 5n, fee: 12n, classicGas: 50_677n, rateBps: 7000 }]],
    ["failed on chain: the share, with the item's reason, no fee", { sweepId: "s", outcome: "failed", onChain, reason: "TokenTransferFailed" }, ["failed", "TokenTransferFailed", null, true, null]],
    ["failed when attempts ran out: the last attempt's reason, nothing on chain", { sweepId: "s", outcome: "attempt_failed", next: { status: "failed", reason: "nonce_conflict" } }, ["failed", "nonce_conflict", null, false, null]],
    ["back in the queue while attempts remain, with the pause", { sweepId: "s", outcome: "attempt_failed", next: { status: "queued", reason: "chain_unavailable", nextAttemptAt: later } }, ["queued", "chain_unavailable", later, false, null]],
    ["revoked: the share", { revocationId: "r", outcome: "revoked", onChain }, ["revoked", null, null, true, null]],
    ["a revocation not applied: the share, failed not_applied", { revocationId: "r", outcome: "failed", onChain, reason: "not_applied" }, ["failed", "not_applied", null, true, null]],
    ["a revocation back in the queue", { revocationId: "r", outcome: "attempt_failed", next: { status: "queued", reason: "internal", nextAttemptAt: later } }, ["queued", "internal", later, false, null]],
  ])("%s", (_name, settlement, expected) => {
    const transition = "sweepId" in settlement ? sweepTransition(settlement) : revocationTransition(settlement);
    expect(transition.id).toBe("sweepId" in settlement ? settlement.sweepId : settlement.revocationId);
    expect(summary(transition)).toEqual(expected);
  });
});
