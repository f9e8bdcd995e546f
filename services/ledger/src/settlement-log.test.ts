import type { SweepSettlement } from "./outcomes";
import type { RevocationSettlement } from "./revocation-outcomes";
import { revocationIdsByStatus, sweepIdsByStatus } from "./settlement-log";

const onChain = { txHash: "0xh", kind: "first" as const, gas: 1n, gasCost: 1n };
const fee = { fee: 0n, classicGas: null, rateBps: 0 };
const requeued = { status: "queued" as const, reason: "internal" as const, nextAttemptAt: new Date(0) };
const exhausted = { status: "failed" as const, reason: "internal" as const };

describe("sweepIdsByStatus", () => {
  it.each<[string, SweepSettlement[], Record<string, string[]>]>([
    ["nothing settled", [], {}],
    [
      "a mined batch: swept and failed items",
      [
        { sweepId: "a", outcome: "swept", onChain, sweptAmount: 1n, fee },
        { sweepId: "b", outcome: "failed", onChain, reason: "transfer_failed" },
        { sweepId: "c", outcome: "swept", onChain, sweptAmount: 1n, fee },
      ],
      { swept: ["a", "c"], failed: ["b"] },
    ],
    [
      "a failed attempt: back to the queue, or failed once attempts ran out",
      [
        { sweepId: "a", outcome: "attempt_failed", next: requeued },
        { sweepId: "b", outcome: "attempt_failed", next: exhausted },
      ],
      { queued: ["a"], failed: ["b"] },
    ],
  ])("%s", (_what, settlements, expected) => {
    expect(sweepIdsByStatus(settlements)).toEqual(expected);
  });
});

describe("revocationIdsByStatus", () => {
  const revoked = { txHash: "0xh", gas: 1n, gasCost: 1n };
  it.each<[string, RevocationSettlement[], Record<string, string[]>]>([
    ["nothing settled", [], {}],
    [
      "a mined batch",
      [
        { revocationId: "a", outcome: "revoked", onChain: revoked },
        { revocationId: "b", outcome: "failed", onChain: revoked, reason: "not_applied" },
      ],
      { revoked: ["a"], failed: ["b"] },
    ],
    [
      "a failed attempt",
      [
        { revocationId: "a", outcome: "attempt_failed", next: requeued },
        { revocationId: "b", outcome: "attempt_failed", next: requeued },
      ],
      { queued: ["a", "b"] },
    ],
  ])("%s", (_what, settlements, expected) => {
    expect(revocationIdsByStatus(settlements)).toEqual(expected);
  });
});
