import type { AttemptFailureReason, Logger } from "@sweep/common";
import type { Receipt } from "@sweep/rpc";
import { Prisma, enqueueOutbox, toBigInt, toDecimal, type BatchPurpose, type Db, type Tx } from "@sweep/db";
import { changeBatch, changeTransactions, correctedFrom, openGapFillBatch, states, storeTransaction, takeBackIntoBatch, unfinishedStates, type WorkKind } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { batchPurposes } from "./batch-purposes";
import type { AbandonedTransaction, InFlightTransaction, MinedBatch, MinedTransaction, StoredTransaction } from "./batch-types";
import type { GasWalletRow } from "./gas-wallet-signers";
import type { RevocationItemOutcome } from "./watch/mined-outcomes";
import type { SignedTransaction } from "./signing";

const withBatch = { batch: { select: { id: true, purpose: true, hotWalletId: true, gasWallet: { select: { partnerId: true } }, hotWallet: { select: { delegate: true } } } } } as const;

function batchOf(row: { batch: { id: string; purpose: BatchPurpose; hotWalletId: string | null; gasWallet: { partnerId: string }; hotWallet: { delegate: string } | null } | null }): MinedBatch | null {
  const { batch } = row;
  return batch ? { id: batch.id, purpose: batch.purpose, hotWalletId: batch.hotWalletId, partnerId: batch.gasWallet.partnerId, delegate: batch.hotWallet?.delegate ?? null } : null;
}

export async function inFlightTransactions(db: Db, chainId: number): Promise<InFlightTransaction[]> {
  const rows = await db.chainTransaction.findMany({
    where: { chainId, status: { in: unfinishedStates.transaction } },
    include: withBatch,
    orderBy: [{ nonce: "asc" }, { replacement: "asc" }],
  });
  return rows.map((row) => ({
    id: row.id,
    chainId: row.chainId,
    gasWalletId: row.gasWalletId,
    nonce: row.nonce,
    replacement: row.replacement,
    hash: row.hash,
    rawTx: row.rawTx,
    status: row.status as InFlightTransaction["status"],
    fees: { maxFeePerGas: toBigInt(row.maxFeePerGas), maxPriorityFeePerGas: toBigInt(row.maxPriorityFeePerGas) },
    createdAt: row.createdAt,
    broadcastAt: row.broadcastAt,
    batch: batchOf(row),
  }));
}

export async function gasWalletsById(db: Db, ids: readonly string[]): Promise<GasWalletRow[]> {
  return db.gasWallet.findMany({ where: { id: { in: [...ids] } }, select: { id: true, address: true, keyCustody: true, encryptedKey: true, kekId: true, keyLabel: true } });
}

/** Every stored transaction of a gas wallet at these nonces, whatever their status. */
export async function transactionsAtNonces(db: Db, chainId: number, gasWalletId: string, nonces: readonly bigint[]) {
  const rows = await db.chainTransaction.findMany({
    where: { chainId, gasWalletId, nonce: { in: [...nonces] } },
    select: { nonce: true, replacement: true, status: true, maxFeePerGas: true, maxPriorityFeePerGas: true },
  });
  return rows.map((row) => ({
    nonce: row.nonce,
    replacement: row.replacement,
    status: row.status,
    fees: { maxFeePerGas: toBigInt(row.maxFeePerGas), maxPriorityFeePerGas: toBigInt(row.maxPriorityFeePerGas) },
  }));
}

/** Nonces of a gas wallet from `from` on whose transaction was settled as mined. */
export async function confirmedNoncesFrom(db: Db, chainId: number, gasWalletId: string, from: bigint): Promise<bigint[]> {
  const rows = await db.chainTransaction.findMany({ where: { chainId, gasWalletId, nonce: { gte: from }, status: states.transaction.confirmed }, select: { nonce: true } });
  return rows.map((r) => r.nonce);
}

/** The node took the transaction (or already had it). */
export async function markBroadcast(db: Db, transactionId: string): Promise<void> {
  await changeTransactions(db, { ids: [transactionId] }, { to: "broadcast" });
}

/** The columns of a signed transaction stored before its broadcast (every store of one, by storeTransaction: a batch's, a split's, a replacement, a gap fill). */
export function transactionData(signed: SignedTransaction) {
  return {
    nonce: signed.nonce,
    hash: signed.hash,
    rawTx: signed.rawTx,
    gasLimit: signed.gasLimit,
    maxFeePerGas: toDecimal(signed.fees.maxFeePerGas),
    maxPriorityFeePerGas: toDecimal(signed.fees.maxPriorityFeePerGas),
  };
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/**
 * Stores a replacement (same nonce, same content, higher fees) before it is broadcast. Null when
 * another instance stored that replacement first (the unique nonce/replacement pair).
 */
export async function storeReplacement(db: Db, previous: InFlightTransaction, signed: SignedTransaction, replacement: number): Promise<StoredTransaction | null> {
  try {
    return await storeTransaction(db, { chainId: previous.chainId, gasWalletId: previous.gasWalletId, batchId: previous.batch?.id ?? null, replacement, ...transactionData(signed) });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

async function createGapFill(tx: Tx, chainId: number, gasWalletId: string, signed: SignedTransaction, replacement: number): Promise<StoredTransaction> {
  const batchId = await openGapFillBatch(tx, { chainId, gasWalletId });
  return storeTransaction(tx, { chainId, gasWalletId, batchId, replacement, ...transactionData(signed) });
}

/** Stores a self-transfer that fills a nonce nothing else will (its own gap_fill batch), before it is broadcast. */
export async function storeGapFill(db: Db, chainId: number, gasWalletId: string, signed: SignedTransaction, replacement: number): Promise<StoredTransaction | null> {
  try {
    return await db.$transaction((tx) => createGapFill(tx, chainId, gasWalletId, signed, replacement));
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/**
 * Gives up the in-flight transactions of a nonce: dropped, and their batch failed with `reason`
 * (batch.failed, so its items go back to queued or fail). With `gapFill`, the self-transfer that
 * takes the nonce instead is stored in the same database transaction. Null when another instance
 * settled the nonce first. `head` is kept with them: their receipts are looked for a while after
 * (AbandonedTransactions), and one found mined is restored.
 */
export async function abandonNonce(
  db: Db,
  names: QueueNames,
  input: { chainId: number; gasWalletId: string; nonce: bigint; head: number; reason: AttemptFailureReason; gapFill?: { signed: SignedTransaction; replacement: number } },
): Promise<{ gapFill: StoredTransaction | null; batchIds: string[] } | null> {
  const { chainId, gasWalletId, nonce, reason } = input;
  try {
    return await db.$transaction(async (tx) => {
      const rows = await tx.chainTransaction.findMany({ where: { chainId, gasWalletId, nonce, status: { in: unfinishedStates.transaction } }, select: { id: true, batchId: true } });
      const dropped = await changeTransactions(tx, { ids: rows.map((r) => r.id) }, { to: "dropped", abandonedAtBlock: input.head });
      if (dropped === 0) return null;
      const batchIds = [...new Set(rows.flatMap((r) => (r.batchId ? [r.batchId] : [])))];
      for (const batch of await tx.batch.findMany({ where: { id: { in: batchIds }, status: states.batch.sent }, select: { id: true, purpose: true, hotWalletId: true, gasWallet: { select: { partnerId: true } } } })) {
        await changeBatch(tx, names, { ...batch, chainId, partnerId: batch.gasWallet.partnerId }, "sent", { to: "failed", reason });
      }
      const gapFill = input.gapFill ? await createGapFill(tx, chainId, gasWalletId, input.gapFill.signed, input.gapFill.replacement) : null;
      return { gapFill, batchIds };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/**
 * Records a transaction mined at the confirmation depth, in one database transaction guarded by
 * its status (a second watcher changes nothing): the transaction confirmed, the others of its
 * nonce replaced, each carried sweep item's outcome, amount and gas from the delegate's events (or
 * each revocation item's outcome, read from the chain beforehand), the batch confirmed, and
 * tx.outcome for the ledger; for a sweep batch also hot_wallet.wake, so the sweeps that waited for
 * it are batched at once rather than after the ledger's work. Returns false when it was settled before.
 */
export async function settleMined(
  db: Db,
  names: QueueNames,
  mined: MinedTransaction,
  receipt: Receipt,
  logger: Logger,
  revocations: readonly RevocationItemOutcome[] = [],
): Promise<boolean> {
  return db.$transaction(
    async (tx) => {
      const confirmed = await changeTransactions(tx, { ids: [mined.id] }, { to: "confirmed", receipt });
      if (confirmed === 0) return false;
      await recordMined(tx, names, mined, receipt, logger, revocations);
      return true;
    },
    { timeout: 30_000 },
  );
}

/** What a mined transaction's settlement records beside its own row (settleMined, restoreAbandoned). */
async function recordMined(tx: Tx, names: QueueNames, mined: MinedTransaction, receipt: Receipt, logger: Logger, revocations: readonly RevocationItemOutcome[]): Promise<void> {
  await changeTransactions(tx, { othersOfNonce: { chainId: mined.chainId, gasWalletId: mined.gasWalletId, nonce: mined.nonce, mined: mined.id } }, { to: "replaced" });
  const stages = mined.batch ? batchPurposes[mined.batch.purpose] : null;
  if (mined.batch && stages) {
    await stages.recordOutcomes(tx, mined.batch, receipt, revocations, logger);
    await changeBatch(tx, names, { ...mined.batch, chainId: mined.chainId }, "sent", { to: "confirmed" });
  }
  await enqueueOutbox(tx, outboxDraft("tx.outcome", { chainId: mined.chainId, transactionId: mined.id }, names));
}

/** The chain's transactions given up at a head from `from` on: each may yet turn out mined. */
export async function abandonedTransactions(db: Db, chainId: number, from: number): Promise<AbandonedTransaction[]> {
  const rows = await db.chainTransaction.findMany({
    where: { chainId, status: states.transaction.dropped, abandonedAtBlock: { gte: BigInt(from) } },
    select: { id: true, chainId: true, gasWalletId: true, nonce: true, hash: true, abandonedAtBlock: true, ...withBatch },
    orderBy: [{ nonce: "asc" }, { replacement: "asc" }],
  });
  return rows.map((row) => ({ id: row.id, chainId: row.chainId, gasWalletId: row.gasWalletId, nonce: row.nonce, hash: row.hash, abandonedAtBlock: Number(row.abandonedAtBlock), batch: batchOf(row) }));
}

/** An item a restoration took out of a final state, as the final-state counter had counted it. */
export interface CorrectedItem {
  kind: WorkKind;
  status: "rejected" | "failed";
  reason: string;
}

/**
 * A given-up transaction found mined at the confirmation depth, restored as if it had been settled
 * then, in one database transaction guarded by the corrections table (a second watcher changes
 * nothing): the transaction confirmed with its receipt, its failed batch confirmed, the sweeps or
 * revocations the batch's failure left queued, rejected or failed (and claimed by no other batch
 * since) back in it as processing, then what settleMined records (their outcomes: a sweep's from the
 * receipt, a revocation's from `revocations`, read from the chain beforehand for the revocations it
 * may take back; tx.outcome: the ledger books the gas once and settles them as the chain says, and a
 * deployment's hot wallet its failure failed from the delegate's code). A revocation without a
 * reading is not taken back. An item claimed into another batch since is left where it is; a sweep's
 * events then do not line up with the sweeps back in the batch, and the ledger fails those (internal,
 * logged as an error) rather than guess. Null when it was restored before.
 */
export async function restoreAbandoned(
  db: Db,
  names: QueueNames,
  abandoned: AbandonedTransaction,
  receipt: Receipt,
  logger: Logger,
  revocations: readonly RevocationItemOutcome[] = [],
): Promise<{ sweepIds: string[]; revocationIds: string[]; corrected: CorrectedItem[] } | null> {
  return db.$transaction(
    async (tx) => {
      const restored = await changeTransactions(tx, { ids: [abandoned.id] }, { to: "confirmed", receipt }, correctedFrom("transaction", "confirmed"));
      if (restored === 0) return null;
      const batch = abandoned.batch;
      const back: Record<WorkKind, Array<{ id: string; was: string; reason: string | null }>> = { sweep: [], revocation: [] };
      let carried: RevocationItemOutcome[] = [];
      if (batch) {
        await changeBatch(tx, names, { ...batch, chainId: abandoned.chainId }, "failed", { to: "confirmed" });
        if (batch.purpose === "sweep") {
          const items = await tx.batchItem.findMany({ where: { batchId: batch.id, sweepId: { not: null } }, select: { sweepId: true } });
          back.sweep = await takeBackIntoBatch(tx, "sweep", batch.id, items.map((i) => i.sweepId!));
        }
        if (batch.purpose === "revocation") {
          back.revocation = await takeBackIntoBatch(tx, "revocation", batch.id, revocations.map((r) => r.revocationId));
          // Only the readings of revocations now processing in the batch: one claimed elsewhere between the reading and here stays out.
          const processing = new Set((await tx.revocation.findMany({ where: { batchId: batch.id, status: states.revocation.processing }, select: { id: true } })).map((r) => r.id));
          carried = revocations.filter((r) => processing.has(r.revocationId));
        }
      }
      await recordMined(tx, names, abandoned, receipt, logger, carried);
      const corrected = (Object.keys(back) as WorkKind[]).flatMap((kind) =>
        back[kind].flatMap((item): CorrectedItem[] => (item.was === "rejected" || item.was === "failed" ? [{ kind, status: item.was, reason: item.reason ?? "none" }] : [])),
      );
      return { sweepIds: back.sweep.map((item) => item.id), revocationIds: back.revocation.map((item) => item.id), corrected };
    },
    { timeout: 30_000 },
  );
}
