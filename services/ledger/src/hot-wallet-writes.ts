import type { Tx } from "@sweep/db";
import { fromStates, recordEvent } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";

export type HotWalletSettlement = { status: "active"; txHash: string } | { status: "failed"; error: string };

/**
 * Settles a pending hot wallet by the outcome of one deployment batch. Guarded by the status and by
 * the batch being the hot wallet's latest deployment, so neither a redelivery nor a stale outcome
 * of a deployment before a re-registration changes it. The event's key names the batch: a hot
 * wallet registered again after failing may fail again and is told again.
 */
export async function settleHotWallet(tx: Tx, names: QueueNames, target: { hotWalletId: string; partnerId: string; batchId: string; batchCreatedAt: Date }, settlement: HotWalletSettlement): Promise<boolean> {
  const data = settlement.status === "active" ? { status: "active" as const, error: null, txHash: settlement.txHash } : { status: "failed" as const, error: settlement.error };
  const { count } = await tx.hotWallet.updateMany({
    where: { id: target.hotWalletId, status: { in: fromStates("hotWallet", settlement.status) }, batches: { none: { purpose: "deploy_delegate", createdAt: { gt: target.batchCreatedAt } } } },
    data,
  });
  if (count === 0) return false;
  const type = settlement.status === "active" ? "hot_wallet.active" : "hot_wallet.failed";
  await recordEvent(tx, names, { partnerId: target.partnerId, type, subjectId: target.hotWalletId, dedupeKey: `${type}:${target.hotWalletId}:${target.batchId}` });
  return true;
}
