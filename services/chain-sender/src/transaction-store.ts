import type { AttemptFailureReason, Logger } from "@sweep/common";
import type { Receipt } from "@sweep/chain";
import { Prisma, enqueueOutbox, toBigInt, toDecimal, type BatchPurpose, type Db, type Tx } from "@sweep/db";
import { fromStates } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { batchPurposes } from "./batch-purposes";
import type { StoredTransaction } from "./batch-store";
import type { Fees } from "./fees";
import type { GasWalletRow } from "./gas-wallet-signers";
import type { RevocationItemOutcome } from "./mined-outcomes";
import type { SignedTransaction } from "./signing";

/** The batch of a stored transaction, as the watcher settles it. */
export interface MinedBatch {
  id: string;
  purpose: BatchPurpose;
  hotWalletId: string | null;
  delegate: string | null;
}

/** A stored transaction not yet settled: signed (no node took it yet) or broadcast. */
export interface InFlightTransaction {
  id: string;
  chainId: number;
  gasWalletId: string;
  nonce: bigint;
  replacement: number;
  hash: string;
  rawTx: string;
  status: "signed" | "broadcast";
  fees: Fees;
  createdAt: Date;
  broadcastAt: Date | null;
  batch: MinedBatch | null;
}

const IN_FLIGHT = ["signed", "broadcast"] as const;

export async function inFlightTransactions(db: Db, chainId: number): Promise<InFlightTransaction[]> {
  const rows = await db.chainTransaction.findMany({
    where: { chainId, status: { in: [...IN_FLIGHT] } },
    include: { batch: { select: { id: true, purpose: true, hotWalletId: true, hotWallet: { select: { delegate: true } } } } },
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
    batch: row.batch ? { id: row.batch.id, purpose: row.batch.purpose, hotWalletId: row.batch.hotWalletId, delegate: row.batch.hotWallet?.delegate ?? null } : null,
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
  const rows = await db.chainTransaction.findMany({ where: { chainId, gasWalletId, nonce: { gte: from }, status: "confirmed" }, select: { nonce: true } });
  return rows.map((r) => r.nonce);
}

/** The node took the transaction (or already had it). */
export async function markBroadcast(db: Db, transactionId: string): Promise<void> {
  await db.chainTransaction.updateMany({ where: { id: transactionId, status: { in: fromStates("transaction", "broadcast") } }, data: { status: "broadcast", broadcastAt: new Date() } });
}

function transactionData(signed: SignedTransaction) {
  return {
    nonce: signed.nonce,
    hash: signed.hash,
    rawTx: signed.rawTx,
    status: "signed" as const,
    gasLimit: signed.gasLimit,
    maxFeePerGas: toDecimal(signed.fees.maxFeePerGas),
    maxPriorityFeePerGas: toDecimal(signed.fees.maxPriorityFeePerGas),
  };
}

const storedFields = { id: true, hash: true, rawTx: true, nonce: true } as const;

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/**
 * Stores a replacement (same nonce, same content, higher fees) before it is broadcast. Null when
 * another instance stored that replacement first (the unique nonce/replacement pair).
 */
export async function storeReplacement(db: Db, previous: InFlightTransaction, signed: SignedTransaction, replacement: number): Promise<StoredTransaction | null> {
  try {
    return await db.chainTransaction.create({
      data: { chainId: previous.chainId, gasWalletId: previous.gasWalletId, batchId: previous.batch?.id ?? null, replacement, ...transactionData(signed) },
      select: storedFields,
    });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

async function createGapFill(tx: Tx, chainId: number, gasWalletId: string, signed: SignedTransaction, replacement: number): Promise<StoredTransaction> {
  const batch = await tx.batch.create({ data: { chainId, gasWalletId, purpose: "gap_fill", status: "sent" }, select: { id: true } });
  return tx.chainTransaction.create({ data: { chainId, gasWalletId, batchId: batch.id, replacement, ...transactionData(signed) }, select: storedFields });
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
 * settled the nonce first.
 */
export async function abandonNonce(
  db: Db,
  names: QueueNames,
  input: { chainId: number; gasWalletId: string; nonce: bigint; reason: AttemptFailureReason; gapFill?: { signed: SignedTransaction; replacement: number } },
): Promise<{ gapFill: StoredTransaction | null; batchIds: string[] } | null> {
  const { chainId, gasWalletId, nonce, reason } = input;
  try {
    return await db.$transaction(async (tx) => {
      const rows = await tx.chainTransaction.findMany({ where: { chainId, gasWalletId, nonce, status: { in: [...IN_FLIGHT] } }, select: { id: true, batchId: true } });
      const dropped = await tx.chainTransaction.updateMany({ where: { id: { in: rows.map((r) => r.id) }, status: { in: fromStates("transaction", "dropped") } }, data: { status: "dropped" } });
      if (dropped.count === 0) return null;
      const batchIds = [...new Set(rows.flatMap((r) => (r.batchId ? [r.batchId] : [])))];
      for (const batch of await tx.batch.findMany({ where: { id: { in: batchIds }, status: "sent" }, select: { id: true, purpose: true } })) {
        await tx.batch.update({ where: { id: batch.id }, data: { status: "failed", reason } });
        // A gap filler has no items to retry.
        if (!batchPurposes[batch.purpose].gapFill) await enqueueOutbox(tx, outboxDraft("batch.failed", { batchId: batch.id, chainId, reason }, names));
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
  mined: InFlightTransaction,
  receipt: Receipt,
  logger: Logger,
  revocations: readonly RevocationItemOutcome[] = [],
): Promise<boolean> {
  return db.$transaction(
    async (tx) => {
      const confirmed = await tx.chainTransaction.updateMany({
        where: { id: mined.id, status: { in: fromStates("transaction", "confirmed") } },
        data: {
          status: "confirmed",
          gasUsed: receipt.gasUsed,
          effectiveGasPrice: toDecimal(receipt.effectiveGasPrice),
          blockNumber: BigInt(receipt.blockNumber),
          blockHash: receipt.blockHash,
          succeeded: receipt.succeeded,
          minedAt: new Date(),
        },
      });
      if (confirmed.count === 0) return false;
      await tx.chainTransaction.updateMany({
        where: { chainId: mined.chainId, gasWalletId: mined.gasWalletId, nonce: mined.nonce, id: { not: mined.id }, status: { in: fromStates("transaction", "replaced") } },
        data: { status: "replaced" },
      });
      const stages = mined.batch ? batchPurposes[mined.batch.purpose] : null;
      if (mined.batch && stages) {
        await stages.recordOutcomes(tx, mined.batch, receipt, revocations, logger);
        await tx.batch.updateMany({ where: { id: mined.batch.id, status: "sent" }, data: { status: "confirmed" } });
      }
      await enqueueOutbox(tx, outboxDraft("tx.outcome", { chainId: mined.chainId, transactionId: mined.id }, names));
      if (mined.batch && stages) await stages.wakeOnMined(tx, names, mined.batch, mined.chainId);
      return true;
    },
    { timeout: 30_000 },
  );
}
