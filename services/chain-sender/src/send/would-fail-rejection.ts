import type { Tx } from "@sweep/db";
import { rejectWork } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import type { PendingMetrics } from "@sweep/metrics";
import type { SweepBatchToSend } from "../batch-types";

/**
 * The sweeps the simulation showed would fail, rejected would_fail (those still processing in the
 * batch), with what waited for them, which no settlement will report (rejectWork in @sweep/lifecycle).
 */
export async function rejectWouldFail(tx: Tx, names: QueueNames, batch: SweepBatchToSend, sweepIds: readonly string[], metrics: PendingMetrics): Promise<void> {
  const scope = { partnerId: batch.partnerId, chainId: batch.chainId, hotWalletId: batch.hotWalletId, by: "chain-sender" as const, batchId: batch.id };
  await rejectWork(tx, names, metrics, "sweep", scope, sweepIds.map((id) => ({ id, reason: "would_fail" })));
}
