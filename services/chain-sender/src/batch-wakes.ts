import { enqueueOutbox, type Tx } from "@sweep/db";
import { fromStates, recordEvent, wakeRevocationRounds, wakeSweepsOfAccounts } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { sweepsFinal, type PendingMetrics } from "@sweep/metrics";
import type { RevocationBatchToSend, SweepBatchToSend } from "./batch-store";

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
 * batch), and what waited for them, which no settlement will report: sweeps of their addresses in
 * the chain's other hot wallets, and revocations of them requested later.
 */
export async function rejectWouldFail(tx: Tx, names: QueueNames, batch: SweepBatchToSend, sweepIds: readonly string[], metrics: PendingMetrics): Promise<void> {
  if (sweepIds.length === 0) return;
  for (const sweepId of sweepIds) {
    const rejected = await tx.sweep.updateMany({
      where: { id: sweepId, batchId: batch.id, status: { in: fromStates("sweep", "rejected", "chain-sender") } },
      data: { status: "rejected", reason: "would_fail", nextAttemptAt: null },
    });
    if (rejected.count > 0) {
      await recordEvent(tx, names, { partnerId: batch.partnerId, type: "sweep.rejected", subjectId: sweepId });
      metrics.inc(sweepsFinal, { chain_id: batch.chainId, status: "rejected", reason: "would_fail" });
    }
  }
  const accounts = batch.items.filter((item) => sweepIds.includes(item.sweepId)).map((item) => item.sweep.account);
  await wakeSweepsOfAccounts(tx, names, { chainId: batch.chainId, accounts, except: batch.hotWalletId });
  await wakeRevocationRounds(tx, names, { chainId: batch.chainId, accounts });
}
