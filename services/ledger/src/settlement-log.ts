import type { SweepSettlement } from "./outcomes";
import type { RevocationSettlement } from "./revocation-outcomes";

/** The status a settlement leaves its sweep or revocation in. */
function statusOf(settlement: SweepSettlement | RevocationSettlement): string {
  return settlement.outcome === "attempt_failed" ? settlement.next.status : settlement.outcome;
}

function grouped(entries: ReadonlyArray<readonly [id: string, status: string]>): Record<string, string[]> {
  const byStatus: Record<string, string[]> = {};
  for (const [id, status] of entries) (byStatus[status] ??= []).push(id);
  return byStatus;
}

/**
 * The settled sweeps' ids by the status they are left in (`{swept: [...], failed: [...], queued: [...]}`,
 * only those present): one field of the batch's one settlement line, so grepping a sweep's id
 * finds how its batch ended for it.
 */
export function sweepIdsByStatus(settlements: readonly SweepSettlement[]): Record<string, string[]> {
  return grouped(settlements.map((s) => [s.sweepId, statusOf(s)] as const));
}

/** The settled revocations' ids by the status they are left in, as `sweepIdsByStatus`. */
export function revocationIdsByStatus(settlements: readonly RevocationSettlement[]): Record<string, string[]> {
  return grouped(settlements.map((s) => [s.revocationId, statusOf(s)] as const));
}
