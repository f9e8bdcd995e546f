import type { HotWallet, Prisma, Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { recordEvent } from "./events";
import { correctedFrom, fromStates } from "./transitions";

/**
 * The changes of a hot wallet's state after its creation, each with what goes with it, in the
 * caller's database transaction (the guard from the transition table).
 */

/** null → pending: a hot wallet registered, its deployment queued (hot_wallet.deploy). */
export async function createPendingHotWallet(tx: Tx, names: QueueNames, draft: Omit<Prisma.HotWalletUncheckedCreateInput, "status"> & { id: string }): Promise<HotWallet> {
  const hotWallet = await tx.hotWallet.create({ data: { ...draft, status: "pending" } });
  await tx.outboxMessage.create({ data: outboxDraft("hot_wallet.deploy", { hotWalletId: hotWallet.id, chainId: hotWallet.chainId }, names) });
  return hotWallet;
}

/**
 * failed → pending: registered again, its deployment queued anew. Guarded by the status: of
 * concurrent registrations, one queues the deployment. Returns whether it changed.
 */
export async function redeployHotWallet(tx: Tx, names: QueueNames, failed: Pick<HotWallet, "id" | "chainId">): Promise<boolean> {
  const { count } = await tx.hotWallet.updateMany({
    where: { id: failed.id, status: { in: fromStates("hotWallet", "pending", "api-gateway") } },
    data: { status: "pending", error: null, txHash: null, attempts: 0 },
  });
  if (count === 1) await tx.outboxMessage.create({ data: outboxDraft("hot_wallet.deploy", { hotWalletId: failed.id, chainId: failed.chainId }, names) });
  return count === 1;
}

export type HotWalletSettlement = { status: "active"; txHash: string } | { status: "failed"; error: string };

/**
 * pending → active or failed: the outcome of one deployment batch, by the ledger. Guarded by the status and by
 * the batch being the hot wallet's latest deployment, so neither a redelivery nor a stale outcome
 * of a deployment before a re-registration changes it. The event's key names the batch: a hot
 * wallet registered again after failing may fail again and is told again. Active may also start from
 * failed (a correction): the deployment's nonce was given up, failing it, but its transaction was
 * mined and the delegate has code, which only the chain can say.
 */
export async function settleHotWallet(tx: Tx, names: QueueNames, target: { hotWalletId: string; partnerId: string; batchId: string; batchCreatedAt: Date }, settlement: HotWalletSettlement): Promise<boolean> {
  const data = settlement.status === "active" ? { status: "active" as const, error: null, txHash: settlement.txHash } : { status: "failed" as const, error: settlement.error };
  const { count } = await tx.hotWallet.updateMany({
    where: { id: target.hotWalletId, status: { in: settlement.status === "active" ? [...fromStates("hotWallet", "active"), ...correctedFrom("hotWallet", "active")] : fromStates("hotWallet", "failed") }, batches: { none: { purpose: "deploy_delegate", createdAt: { gt: target.batchCreatedAt } } } },
    data,
  });
  if (count === 0) return false;
  const type = settlement.status === "active" ? "hot_wallet.active" : "hot_wallet.failed";
  await recordEvent(tx, names, { partnerId: target.partnerId, type, subjectId: target.hotWalletId, dedupeKey: `${type}:${target.hotWalletId}:${target.batchId}` });
  return true;
}
