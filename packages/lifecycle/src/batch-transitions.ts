import type { AttemptFailureReason } from "@sweep/common";
import type { BatchPurpose, BatchStatus, Prisma, Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { isCorrection, isTransition } from "./transitions";
import { wakeHotWallet, wakeRevocationRounds } from "./work-wakes";

/**
 * The changes of a batch's state, each guarded by the transition table (or its corrections), in
 * the caller's database transaction, with what they tell and wake: a failure tells batch.failed, for
 * the ledger to settle its items; a batch sent or confirmed wakes the next batch of its kind.
 */

/** A new batch's columns, but its state: every batch starts open (a gap filler, sent: storeGapFillBatch). */
export type BatchDraft = Omit<Prisma.BatchUncheckedCreateInput, "id" | "status" | "reason">;

/** null → open: a batch claimed, a deployment or a withdrawal to send. Its batch.ready, where one is due, is the caller's. */
export async function openBatch(tx: Tx, draft: BatchDraft): Promise<string> {
  const batch = await tx.batch.create({ data: { ...draft, status: "open" }, select: { id: true } });
  return batch.id;
}

/** null → open, announced to the chain's sender by batch.ready: a withdrawal (the ledger's schedule, sweepctl's fees withdraw and gas-wallet drain). */
export async function openAnnouncedBatch(tx: Tx, names: QueueNames, draft: BatchDraft): Promise<string> {
  const batchId = await openBatch(tx, draft);
  await tx.outboxMessage.create({ data: outboxDraft("batch.ready", { batchId, chainId: draft.chainId }, names) });
  return batchId;
}

/** null → sent: a gap filler's batch, created with the self-transfer that takes a nonce nothing else will. */
export async function openGapFillBatch(tx: Tx, wallet: { chainId: number; gasWalletId: string }): Promise<string> {
  const batch = await tx.batch.create({ data: { ...wallet, purpose: "gap_fill", status: "sent" }, select: { id: true } });
  return batch.id;
}

export type BatchChange = { to: "sent" } | { to: "confirmed" } | { to: "failed"; reason: AttemptFailureReason };

/** The batch a change is made to: batch.failed names its chain, a gap filler's failure tells nothing (no items), and the wakes name its hot wallet or partner. */
export interface ChangedBatch {
  id: string;
  chainId: number;
  purpose: BatchPurpose;
  hotWalletId: string | null;
  partnerId: string;
}

/**
 * What a batch sent or confirmed (by an attempt with nothing left to send, mined, or restored) wakes,
 * per purpose: the batcher prepares the next batch of the kind, which waited while this one was being
 * prepared and sent, at once rather than on its poll. A failure wakes nothing here: its batch.failed
 * settles the items, and that settlement wakes what waited for them (work-kinds.ts).
 */
const wakesOf: Record<BatchPurpose, (tx: Tx, names: QueueNames, batch: ChangedBatch) => Promise<void>> = {
  sweep: async (tx, names, { hotWalletId, chainId }) => {
    if (hotWalletId) await wakeHotWallet(tx, names, { hotWalletId, chainId });
  },
  revocation: (tx, names, { partnerId, chainId }) => wakeRevocationRounds(tx, names, { chainId, accounts: [], partnerId }),
  deploy_delegate: async () => undefined,
  withdrawal: async () => undefined,
  gap_fill: async () => undefined,
};

/**
 * `from` → `change.to`, by the chain-sender: only while the batch is in `from`, so a redelivered
 * message or a second instance changes nothing (false). A change the table (or, out of a failed
 * batch, its corrections) does not allow throws, writing nothing. Failed records its reason and,
 * but for a gap filler, batch.failed; the other states clear the reason and wake (wakesOf).
 */
export async function changeBatch(tx: Tx, names: QueueNames, batch: ChangedBatch, from: BatchStatus, change: BatchChange): Promise<boolean> {
  if (!isTransition("batch", from, change.to) && !isCorrection("batch", from, change.to)) throw new Error(`no change of a batch leads from ${from} into ${change.to}`);
  const reason = change.to === "failed" ? change.reason : null;
  const { count } = await tx.batch.updateMany({ where: { id: batch.id, status: from }, data: { status: change.to, reason } });
  if (count === 0) return false;
  if (change.to === "failed") {
    if (batch.purpose !== "gap_fill") await tx.outboxMessage.create({ data: outboxDraft("batch.failed", { batchId: batch.id, chainId: batch.chainId, reason: change.reason }, names) });
  } else {
    await wakesOf[batch.purpose](tx, names, batch);
  }
  return true;
}
