import type { Tx } from "@sweep/db";
import { settleWork, type WorkSettlement } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { gasPerSweep, type PendingMetrics } from "@sweep/metrics";
import { recordSweptDelegations } from "./deposit-delegations";
import { bookSweepFees } from "./ledger-entries";
import type { SweepSettlement } from "./outcomes";

export interface BatchScope {
  partnerId: string;
  chainId: number;
  hotWalletId: string;
  batchId: string;
}

/** A sweep's settlement as the lifecycle applies it: its new state and the columns it writes. */
export function sweepTransition(settlement: SweepSettlement): WorkSettlement<"sweep"> {
  const { sweepId: id } = settlement;
  switch (settlement.outcome) {
    case "swept": {
      const { onChain, fee } = settlement;
      return { id, status: "swept", reason: null, nextAttemptAt: null, onChain, done: { sweptAmount: settlement.sweptAmount, fee: fee.fee, classicGas: fee.classicGas, rateBps: fee.rateBps } };
    }
    case "failed":
      return { id, status: "failed", reason: settlement.reason, nextAttemptAt: null, onChain: settlement.onChain, done: null };
    case "attempt_failed": {
      const { next } = settlement;
      return { id, status: next.status, reason: next.reason, nextAttemptAt: next.status === "queued" ? next.nextAttemptAt : null, onChain: null, done: null };
    }
  }
}

/**
 * Applies the settlements of one batch's open sweeps (settleWork in @sweep/lifecycle: the guarded
 * update, events, final-state metric and wakes), books the fees of those swept and marks their
 * addresses delegated in the inventory. Only sweeps
 * still processing in this batch change, so only the first delivery of an outcome books a fee.
 * Returns the settlements that changed a sweep.
 */
export async function applySweepSettlements(tx: Tx, names: QueueNames, metrics: PendingMetrics, scope: BatchScope, settlements: readonly SweepSettlement[]): Promise<SweepSettlement[]> {
  const changedIds = await settleWork(tx, names, metrics, "sweep", scope, settlements.map(sweepTransition));
  const changed = settlements.filter((settlement) => changedIds.has(settlement.sweepId));
  const swept = changed.flatMap((s) => (s.outcome === "swept" ? [s] : []));
  await recordSweptDelegations(tx, swept.map((s) => s.sweepId));
  await bookSweepFees(
    tx,
    swept.map((s) => ({ partnerId: scope.partnerId, chainId: scope.chainId, sweepId: s.sweepId, txHash: s.onChain.txHash, fee: s.fee.fee })),
  );
  for (const s of swept) metrics.observe(gasPerSweep, { chain_id: scope.chainId, kind: s.onChain.kind }, Number(s.onChain.gas));
  return changed;
}
