import { gasPerSweep, revocationsFinal, sweepsFinal } from "@sweep/metrics";
import type { SweepSettlement } from "./outcomes";
import type { RevocationSettlement } from "./revocation-outcomes";

/** The final status and reason (none when it went through) a settlement leaves; null when it sends its sweep or revocation back to the queue. */
export function finalState(settlement: SweepSettlement | RevocationSettlement): { status: string; reason: string } | null {
  switch (settlement.outcome) {
    case "swept":
    case "revoked":
      return { status: settlement.outcome, reason: "none" };
    case "failed":
      return { status: "failed", reason: settlement.reason };
    case "attempt_failed":
      return settlement.next.status === "failed" ? { status: "failed", reason: settlement.next.reason } : null;
  }
}

/** Counts the settlements that changed a sweep, once their transaction committed: final states, and the gas of each swept sweep by kind. */
export function countSweepSettlements(chainId: number, changed: readonly SweepSettlement[]): void {
  for (const settlement of changed) {
    const final = finalState(settlement);
    if (final) sweepsFinal.inc({ chain_id: chainId, ...final });
    if (settlement.outcome === "swept") gasPerSweep.observe({ chain_id: chainId, kind: settlement.onChain.kind }, Number(settlement.onChain.gas));
  }
}

/** Counts the final states of the settlements that changed a revocation, once their transaction committed. */
export function countRevocationSettlements(chainId: number, changed: readonly RevocationSettlement[]): void {
  for (const settlement of changed) {
    const final = finalState(settlement);
    if (final) revocationsFinal.inc({ chain_id: chainId, ...final });
  }
}
