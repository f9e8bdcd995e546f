import { gasPerSweep, sweepsFinal } from "@sweep/metrics";
import type { SweepSettlement } from "./outcomes";
import type { RevocationSettlement } from "./revocation-outcomes";
import { countSweepSettlements, finalState } from "./settlement-metrics";

const onChain = { txHash: "0xabc", kind: "first_new" as const, gas: 56_957n, gasCost: 56_957n * 7n };
const fee = { fee: 0n, classicGas: 50_677n, rateBps: 7000 };
const later = new Date(Date.UTC(2026, 0, 1));

describe("the final state of a settlement", () => {
  it.each<[string, SweepSettlement | RevocationSettlement, { status: string; reason: string } | null]>([
    ["swept", { sweepId: "s", outcome: "swept", onChain, sweptAmount: 5n, fee }, { status: "swept", reason: "none" }],
    ["failed on chain, with the item's reason", { sweepId: "s", outcome: "failed", onChain, reason: "TokenTransferFailed" }, { status: "failed", reason: "TokenTransferFailed" }],
    ["failed when attempts ran out, with the last attempt's reason", { sweepId: "s", outcome: "attempt_failed", next: { status: "failed", reason: "nonce_conflict" } }, { status: "failed", reason: "nonce_conflict" }],
    ["none while attempts remain", { sweepId: "s", outcome: "attempt_failed", next: { status: "queued", reason: "chain_unavailable", nextAttemptAt: later } }, null],
    ["revoked", { revocationId: "r", outcome: "revoked", onChain }, { status: "revoked", reason: "none" }],
    ["a revocation not applied", { revocationId: "r", outcome: "failed", onChain, reason: "not_applied" }, { status: "failed", reason: "not_applied" }],
  ])("%s", (_name, settlement, state) => {
    expect(finalState(settlement)).toEqual(state);
  });
});

describe("counting sweep settlements", () => {
  beforeEach(() => {
    sweepsFinal.reset();
    gasPerSweep.reset();
  });

  it("counts final states and observes the gas of swept sweeps only", async () => {
    countSweepSettlements(97, [
      { sweepId: "a", outcome: "swept", onChain, sweptAmount: 5n, fee },
      { sweepId: "b", outcome: "swept", onChain: { ...onChain, kind: "repeat", gas: 18_000n }, sweptAmount: 5n, fee },
      { sweepId: "c", outcome: "failed", onChain, reason: "reverted" },
      { sweepId: "d", outcome: "attempt_failed", next: { status: "queued", reason: "internal", nextAttemptAt: later } },
    ]);
    expect((await sweepsFinal.get()).values.map((v) => [v.labels, v.value])).toEqual([
      [{ chain_id: 97, status: "swept", reason: "none" }, 2],
      [{ chain_id: 97, status: "failed", reason: "reverted" }, 1],
    ]);
    const sums = (await gasPerSweep.get()).values.filter((v) => v.metricName === "sweep_gas_per_sweep_sum");
    expect(sums.map((v) => [v.labels.kind, v.value])).toEqual([
      ["first_new", 56_957],
      ["repeat", 18_000],
    ]);
  });
});
