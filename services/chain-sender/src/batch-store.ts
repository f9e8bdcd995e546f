import type { AttemptFailureReason } from "@sweep/common";
import { enqueueOutbox, feeReserve, toBigIntOrNull, toDecimal, type Db, type Tx } from "@sweep/db";
import { recordEvent, wakeRevocationRounds, wakeSweepsOfAccounts } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { PendingMetrics, sweepsFinal } from "@sweep/metrics";
import type { GasWalletRow } from "./gas-wallet-signers";
import { chooseNonce } from "./nonces";
import type { RevocationItemRow } from "./revocation-plan";
import type { SignedTransaction } from "./signing";
import type { BatchItemRow } from "./sweep-plan";

interface BatchBase {
  id: string;
  chainId: number;
  partnerId: string;
  gasWallet: GasWalletRow;
  /** null for a revocation batch (the gas wallet sends it to itself) and a withdrawal (to the treasury) */
  hotWalletId: string | null;
  /** fees accrued and not withdrawn: kept on the gas wallet, not spent on gas (a withdrawal sends them) */
  feesDue: bigint;
  /** what the gas wallet's transactions in flight on this chain may still cost (gas limit × max fee) */
  inFlightCost: bigint;
}
export type SweepBatchToSend = BatchBase & { purpose: "sweep"; hotWalletId: string; delegate: string; items: BatchItemRow[] };
export type DeployBatchToSend = BatchBase & { purpose: "deploy_delegate"; hotWalletId: string; hotWallet: string };
export type RevocationBatchToSend = BatchBase & { purpose: "revocation"; items: RevocationItemRow[] };
/** `drainTo` null: the fees due to the treasury; else everything but the fees due to that address (a drain). */
export type WithdrawalBatchToSend = BatchBase & { purpose: "withdrawal"; hotWalletId: null; drainTo: string | null };
export type BatchToSend = SweepBatchToSend | DeployBatchToSend | RevocationBatchToSend | WithdrawalBatchToSend;

/** An open batch this sender can send, or why there is nothing to do. */
export async function loadOpenBatch(db: Db, batchId: string, chainId: number): Promise<{ batch: BatchToSend } | { skip: string }> {
  const batch = await db.batch.findUnique({ where: { id: batchId }, include: { hotWallet: true } });
  if (!batch) return { skip: "no such batch" };
  if (batch.chainId !== chainId) return { skip: `the batch is of chain ${batch.chainId}` };
  if (batch.status !== "open") return { skip: `the batch is ${batch.status}` };
  if (batch.purpose === "revocation") {
    return { batch: { ...(await batchBase(db, batch)), hotWalletId: null, purpose: "revocation", items: await openRevocationItems(db, batchId) } };
  }
  if (batch.purpose === "withdrawal") return { batch: { ...(await batchBase(db, batch)), hotWalletId: null, purpose: "withdrawal", drainTo: batch.drainTo } };
  const hotWallet = batch.hotWallet;
  if (!hotWallet) return { skip: `a ${batch.purpose} batch without a hot wallet` };
  if (batch.purpose !== "sweep" && batch.purpose !== "deploy_delegate") return { skip: `${batch.purpose} batches are not sent by this version` };
  const base = { ...(await batchBase(db, batch)), hotWalletId: hotWallet.id };
  if (batch.purpose === "deploy_delegate") return { batch: { ...base, purpose: "deploy_delegate", hotWallet: hotWallet.address } };
  // Items whose sweep is no longer processing in this batch were settled by an earlier attempt (dropped by simulation).
  const items = await db.batchItem.findMany({
    where: { batchId, sweep: { status: "processing", batchId } },
    include: { sweep: true },
    orderBy: { position: "asc" },
  });
  return {
    batch: {
      ...base,
      purpose: "sweep",
      delegate: hotWallet.delegate,
      items: items.map((item) => ({
        position: item.position,
        sweepId: item.sweep!.id,
        withAuthorization: item.withAuthorization,
        sweep: {
          account: item.sweep!.account,
          tokenAddress: item.sweep!.tokenAddress,
          amount: toBigIntOrNull(item.sweep!.amount),
          keepOneUnit: item.sweep!.keepOneUnit,
          authorization: item.sweep!.authorization,
        },
      })),
    },
  };
}

/** What every batch to send carries but its hot wallet: its gas wallet, and what that wallet's balance must keep. */
async function batchBase(db: Db, batch: { id: string; chainId: number; gasWalletId: string }): Promise<Omit<BatchBase, "hotWalletId">> {
  const { id, chainId } = batch;
  const gasWallet = await db.gasWallet.findUniqueOrThrow({
    where: { id: batch.gasWalletId },
    select: { id: true, address: true, keyCustody: true, encryptedKey: true, kekId: true, keyLabel: true, partnerId: true },
  });
  return {
    id,
    chainId,
    partnerId: gasWallet.partnerId,
    gasWallet: { id: gasWallet.id, address: gasWallet.address, keyCustody: gasWallet.keyCustody, encryptedKey: gasWallet.encryptedKey, kekId: gasWallet.kekId, keyLabel: gasWallet.keyLabel },
    feesDue: (await feeReserve(db, gasWallet.partnerId, chainId)).due,
    inFlightCost: await inFlightCost(db, gasWallet.id, chainId),
  };
}

/** A revocation batch's items whose revocation is still processing in it: one settled otherwise is not sent again. */
async function openRevocationItems(db: Db, batchId: string): Promise<RevocationItemRow[]> {
  const items = await db.batchItem.findMany({
    where: { batchId, revocation: { status: "processing", batchId } },
    select: { position: true, revocation: { select: { id: true, account: true, authorization: true } } },
    orderBy: { position: "asc" },
  });
  return items.map((item) => ({ position: item.position, revocationId: item.revocation!.id, account: item.revocation!.account, authorization: item.revocation!.authorization }));
}

/**
 * The most the gas wallet's unmined transactions on the chain can still take from its balance:
 * per nonce, the costliest of its versions in flight. The node's balance does not show them yet.
 */
async function inFlightCost(db: Db, gasWalletId: string, chainId: number): Promise<bigint> {
  const [row] = await db.$queryRaw<Array<{ cost: string }>>`
    SELECT COALESCE(SUM(cost), 0)::text AS cost FROM (
      SELECT MAX(gas_limit::numeric * max_fee_per_gas) AS cost FROM chain_transactions
       WHERE gas_wallet_id = ${gasWalletId}::uuid AND chain_id = ${chainId} AND status IN ('signed', 'broadcast')
       GROUP BY nonce) AS per_nonce`;
  return BigInt(row?.cost ?? "0");
}

/** What one attempt at a batch came to. `dropped` are the sweeps the simulation showed would fail. */
export type Attempt =
  | { type: "failed"; reason: AttemptFailureReason; dropped: string[] }
  | { type: "empty"; dropped: string[] }
  | { type: "send"; dropped: string[]; chainPending: bigint; sign: (nonce: bigint) => Promise<SignedTransaction> };

export interface StoredTransaction {
  id: string;
  hash: string;
  rawTx: string;
  nonce: bigint;
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
      const status = attempt.type === "failed" ? "failed" : attempt.type === "empty" ? "confirmed" : "sent";
      const reason = attempt.type === "failed" ? attempt.reason : null;
      const claimed = await tx.batch.updateMany({ where: { id: batch.id, status: "open" }, data: { status, reason } });
      if (claimed.count === 0) return null;
      await rejectWouldFail(tx, names, batch, attempt.dropped, metrics);
      await wakeWorkOfRejected(tx, names, batch, attempt.dropped);

      if (attempt.type === "failed") {
        await enqueueOutbox(tx, outboxDraft("batch.failed", { batchId: batch.id, chainId: batch.chainId, reason: attempt.reason }, names));
        return null;
      }
      if (attempt.type === "empty") {
        await wakeNextBatch(tx, names, batch);
        return null;
      }
      const highest = await tx.chainTransaction.aggregate({ where: { chainId: batch.chainId, gasWalletId: batch.gasWallet.id }, _max: { nonce: true } });
      const nonce = chooseNonce({ nextNonce: state?.next_nonce ?? null, chainPending: attempt.chainPending, highestStored: highest._max.nonce });
      const signed = await attempt.sign(nonce);
      const stored = await tx.chainTransaction.create({
        data: {
          chainId: batch.chainId,
          gasWalletId: batch.gasWallet.id,
          batchId: batch.id,
          nonce,
          hash: signed.hash,
          rawTx: signed.rawTx,
          status: "signed",
          gasLimit: signed.gasLimit,
          maxFeePerGas: toDecimal(signed.fees.maxFeePerGas),
          maxPriorityFeePerGas: toDecimal(signed.fees.maxPriorityFeePerGas),
        },
        select: { id: true, hash: true, rawTx: true, nonce: true },
      });
      await tx.gasWalletChainState.update({
        where: { gasWalletId_chainId: { gasWalletId: batch.gasWallet.id, chainId: batch.chainId } },
        data: { nextNonce: nonce + 1n },
      });
      await wakeNextBatch(tx, names, batch);
      return stored;
    },
    { timeout: 30_000 },
  );
  metrics.commit();
  return sent;
}

/** The batcher may prepare the next batch of the same kind, which waited while this one was being prepared. */
async function wakeNextBatch(tx: Tx, names: QueueNames, batch: BatchToSend): Promise<void> {
  if (batch.purpose === "sweep") await enqueueOutbox(tx, outboxDraft("hot_wallet.wake", { hotWalletId: batch.hotWalletId, chainId: batch.chainId }, names));
  if (batch.purpose === "revocation") await wakeRevocationRounds(tx, names, { chainId: batch.chainId, accounts: [], partnerId: batch.partnerId });
}

/**
 * What waited for the sweeps just rejected would_fail, which no settlement will report: sweeps of
 * their addresses in the chain's other hot wallets, and revocations of them requested later.
 */
async function wakeWorkOfRejected(tx: Tx, names: QueueNames, batch: BatchToSend, sweepIds: readonly string[]): Promise<void> {
  if (batch.purpose !== "sweep" || sweepIds.length === 0) return;
  const accounts = batch.items.filter((item) => sweepIds.includes(item.sweepId)).map((item) => item.sweep.account);
  await wakeSweepsOfAccounts(tx, names, { chainId: batch.chainId, accounts, except: batch.hotWalletId });
  await wakeRevocationRounds(tx, names, { chainId: batch.chainId, accounts });
}

async function rejectWouldFail(tx: Tx, names: QueueNames, batch: BatchToSend, sweepIds: readonly string[], metrics: PendingMetrics): Promise<void> {
  for (const sweepId of sweepIds) {
    const rejected = await tx.sweep.updateMany({
      where: { id: sweepId, batchId: batch.id, status: "processing" },
      data: { status: "rejected", reason: "would_fail", nextAttemptAt: null },
    });
    if (rejected.count > 0) {
      await recordEvent(tx, names, { partnerId: batch.partnerId, type: "sweep.rejected", subjectId: sweepId });
      metrics.inc(sweepsFinal, { chain_id: batch.chainId, status: "rejected", reason: "would_fail" });
    }
  }
}
