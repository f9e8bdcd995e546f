import type { Tx } from "@sweep/db";
import { settleWork, type WorkSettlement } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import type { PendingMetrics } from "@sweep/metrics";
import { recordRevokedDelegations } from "./deposit-delegations";
import type { RevocationSettlement } from "./revocation-outcomes";

/** A revocation's settlement as the lifecycle applies it: its new state and its share of the gas. */
export function revocationTransition(settlement: RevocationSettlement): WorkSettlement<"revocation"> {
  const { revocationId: id } = settlement;
  switch (settlement.outcome) {
    case "revoked":
      return { id, status: "revoked", reason: null, nextAttemptAt: null, onChain: settlement.onChain, done: null };
    case "failed":
      return { id, status: "failed", reason: settlement.reason, nextAttemptAt: null, onChain: settlement.onChain, done: null };
    case "attempt_failed": {
      const { next } = settlement;
      return { id, status: next.status, reason: next.reason, nextAttemptAt: next.status === "queued" ? next.nextAttemptAt : null, onChain: null, done: null };
    }
  }
}

/**
 * Applies the settlements of one batch's open revocations (settleWork in @sweep/lifecycle) and
 * marks the revoked ones' addresses revoked in the inventory. Revocations pay no fee. Returns the
 * settlements that changed a revocation.
 */
export async function applyRevocationSettlements(
  tx: Tx,
  names: QueueNames,
  metrics: PendingMetrics,
  scope: { partnerId: string; chainId: number; batchId: string },
  settlements: readonly RevocationSettlement[],
): Promise<RevocationSettlement[]> {
  const changedIds = await settleWork(tx, names, metrics, "revocation", scope, settlements.map(revocationTransition));
  const changed = settlements.filter((settlement) => changedIds.has(settlement.revocationId));
  await recordRevokedDelegations(tx, changed.flatMap((s) => (s.outcome === "revoked" ? [s.revocationId] : [])));
  return changed;
}
