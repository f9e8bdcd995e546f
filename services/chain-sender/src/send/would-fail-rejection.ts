import { enqueueOutbox, type Tx } from "@sweep/db";
import { rejectWork, wakeRevocationRounds } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import type { PendingMetrics } from "@sweep/metrics";
import type { RevocationBatchToSend, SweepBatchToSend } from "../batch-types";

/**
 * What a stored attempt wakes, per purpose (batch-purposes.ts chooses): the batcher may prepare the
 * next batch of the same kind, which waited while this one was being prepared.
 */
export async function wakeHotWallet(tx: Tx, names: QueueNames, batch: SweepBatchToSend): Promise<void> {
  await enqueueOutbox(tx, outboxDraft("hot_wallet.wake", { hotWalletId: batch.hotWalletId, chainId: batch.chainId }, names));
}

export async function wakePartnerRevocations(tx: Tx, names: QueueNames, batch: RevocationBatchToSend): Promise<void> {
  await wakeRevocationRounds(tx, names, { chainId: batch.chainId, accounts: [], partnerId: batch.partnerId });
}

/**
 * The sweeps the simulation showed would fail, rejected would_fail (those still processing in the
 * batch), with what waited for them, which no settlement will report (rejectWork in @sweep/lifecycle).
 */
export async function rejectWouldFail(tx: Tx, names: QueueNames, batch: SweepBatchToSend, sweepIds: readonly string[], metrics: PendingMetrics): Promise<void> {
  const scope = { partnerId: batch.partnerId, chainId: batch.chainId, hotWalletId: batch.hotWalletId, by: "chain-sender" as const, batchId: batch.id };
  await rejectWork(tx, names, metrics, "sweep", scope, sweepIds.map((id) => ({ id, reason: "would_fail" })));
}
