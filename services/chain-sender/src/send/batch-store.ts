import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { PendingMetrics } from "@sweep/metrics";
import { changeBatch, states, storeTransaction, type BatchChange } from "@sweep/lifecycle";
import { batchPurposes, stagesOf } from "../batch-purposes";
import type { Attempt, BatchToSend, StoredTransaction } from "../batch-types";
import { chooseNonce } from "../nonces";
import { returnLeftOut } from "./split-sending";
import { transactionData } from "../transaction-store";

/** An open batch this sender can send, loaded as its purpose says, or why there is nothing to do. */
export async function loadOpenBatch(db: Db, batchId: string, chainId: number): Promise<{ batch: BatchToSend } | { skip: string }> {
  const batch = await db.batch.findUnique({ where: { id: batchId }, include: { hotWallet: true } });
  if (!batch) return { skip: "no such batch" };
  if (batch.chainId !== chainId) return { skip: `the batch is of chain ${batch.chainId}` };
  if (batch.status !== states.batch.open) return { skip: `the batch is ${batch.status}` };
  return batchPurposes[batch.purpose].load(db, batch);
}

/**
 * Records an attempt in one database transaction, guarded by the batch still being open (a
 * redelivered message or a second instance changes nothing): dropped sweeps rejected would_fail;
 * then the batch failed (batch.failed), settled without a transaction (a sweep batch's
 * hot_wallet.wake: no ledger work follows), or sent with its signed transaction stored and the gas wallet's next nonce
 * advanced, before anything is broadcast. A sweep batch sent or settled so wakes its hot wallet, a
 * revocation batch its partner's revocation round: their next batch need not wait for this one to
 * be mined. Returns the stored transaction to broadcast.
 */
export async function commitAttempt(db: Db, names: QueueNames, batch: BatchToSend, attempt: Attempt): Promise<StoredTransaction | null> {
  const metrics = new PendingMetrics();
  const sent = await db.$transaction(
    async (tx) => {
      // The gas wallet's nonce row is locked first, so attempts of one gas wallet serialize.
      await tx.$executeRaw`INSERT INTO gas_wallet_chain_states (gas_wallet_id, chain_id, updated_at)
                           VALUES (${batch.gasWallet.id}::uuid, ${batch.chainId}, now()) ON CONFLICT DO NOTHING`;
      const [state] = await tx.$queryRaw<Array<{ next_nonce: bigint | null }>>`
        SELECT next_nonce FROM gas_wallet_chain_states
         WHERE gas_wallet_id = ${batch.gasWallet.id}::uuid AND chain_id = ${batch.chainId} FOR UPDATE`;
      const change: BatchChange = attempt.type === "failed" ? { to: "failed", reason: attempt.reason } : { to: attempt.type === "empty" ? "confirmed" : "sent" };
      // Whatever came of it, an attempt is made on an open batch (its failure's batch.failed with it).
      if (!(await changeBatch(tx, names, batch, "open", change))) return null;
      const stages = stagesOf(batch);
      await stages.rejectDropped(tx, names, batch, attempt.dropped, metrics);
      await returnLeftOut(tx, names, batch, attempt.leftOut ?? []);

      if (attempt.type === "failed") return null;
      if (attempt.type === "empty") return null;
      const highest = await tx.chainTransaction.aggregate({ where: { chainId: batch.chainId, gasWalletId: batch.gasWallet.id }, _max: { nonce: true } });
      const nonce = chooseNonce({ nextNonce: state?.next_nonce ?? null, chainPending: attempt.chainPending, highestStored: highest._max.nonce });
      const signed = await attempt.sign(nonce);
      const stored = await storeTransaction(tx, { chainId: batch.chainId, gasWalletId: batch.gasWallet.id, batchId: batch.id, ...transactionData(signed) });
      await tx.gasWalletChainState.update({
        where: { gasWalletId_chainId: { gasWalletId: batch.gasWallet.id, chainId: batch.chainId } },
        data: { nextNonce: nonce + 1n },
      });
      return stored;
    },
    { timeout: 30_000 },
  );
  metrics.commit();
  return sent;
}
