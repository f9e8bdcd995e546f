import type { BatchPurpose, Db } from "@sweep/db";
import { states } from "@sweep/lifecycle";

/** A settled transaction as its settlement stored it. */
export interface SettledTransaction {
  id: string;
  hash: string;
  blockNumber: number;
  blockHash: string;
}

const settledInWindow = (chainId: number, from: number) =>
  ({ chainId, status: states.transaction.confirmed, reorg: null, blockHash: { not: null }, blockNumber: { gte: BigInt(from) } }) as const;

const settledFields = { id: true, hash: true, blockNumber: true, blockHash: true } as const;

function settled(row: { id: string; hash: string; blockNumber: bigint | null; blockHash: string | null }): SettledTransaction {
  return { id: row.id, hash: row.hash, blockNumber: Number(row.blockNumber), blockHash: row.blockHash! };
}

/**
 * The chain's transaction settled in the highest block from `from` on (one of them). A block's
 * hash commits to its ancestors: while that block is canonical, so is every lower one.
 */
export async function newestSettled(db: Db, chainId: number, from: number): Promise<SettledTransaction | null> {
  // A plain statement: the watcher asks it at every block while a settled transaction is within the window.
  const [row] = await db.$queryRaw<Array<{ id: string; hash: string; blockNumber: bigint | null; blockHash: string | null }>>`
    SELECT id::text, hash, block_number AS "blockNumber", block_hash AS "blockHash" FROM chain_transactions
     WHERE chain_id = ${chainId} AND status = ${states.transaction.confirmed}::"TxStatus" AND reorg IS NULL AND block_hash IS NOT NULL AND block_number >= ${BigInt(from)}
     ORDER BY block_number DESC LIMIT 1`;
  return row ? settled(row) : null;
}

/** Every transaction of the chain settled from block `from` on and not known to have left the chain. */
export async function settledFrom(db: Db, chainId: number, from: number): Promise<SettledTransaction[]> {
  return (await db.chainTransaction.findMany({ where: settledInWindow(chainId, from), orderBy: { blockNumber: "asc" }, select: settledFields })).map(settled);
}

/** A settled transaction out of the chain, with what it takes to send it again and to report on it. */
export interface ReorgedTransaction {
  id: string;
  hash: string;
  rawTx: string;
  nonce: bigint;
  gasWallet: string;
  blockNumber: number;
  blockHash: string | null;
  /** as booked */
  gasUsed: bigint | null;
  succeeded: boolean | null;
  batch: { id: string; purpose: BatchPurpose } | null;
}

/** The chain's transactions out of the chain being sent again (only those of `ids` when given). */
export async function reorgedTransactions(db: Db, chainId: number, ids?: readonly string[]): Promise<ReorgedTransaction[]> {
  const rows = await db.chainTransaction.findMany({
    where: { chainId, reorg: states.reorg.reorged, ...(ids ? { id: { in: [...ids] } } : {}) },
    select: {
      id: true,
      hash: true,
      rawTx: true,
      nonce: true,
      blockNumber: true,
      blockHash: true,
      gasUsed: true,
      succeeded: true,
      gasWallet: { select: { address: true } },
      batch: { select: { id: true, purpose: true } },
    },
    orderBy: { nonce: "asc" },
  });
  return rows.map((row) => ({
    id: row.id,
    hash: row.hash,
    rawTx: row.rawTx,
    nonce: row.nonce,
    gasWallet: row.gasWallet.address,
    blockNumber: Number(row.blockNumber),
    blockHash: row.blockHash,
    gasUsed: row.gasUsed,
    succeeded: row.succeeded,
    batch: row.batch,
  }));
}

/** The sweeps and revocations of a batch: the work a reorg of its transaction touches. */
export async function batchWork(db: Db, batchId: string | undefined): Promise<{ sweepIds: string[]; revocationIds: string[] }> {
  if (!batchId) return { sweepIds: [], revocationIds: [] };
  const items = await db.batchItem.findMany({ where: { batchId }, select: { sweepId: true, revocationId: true }, orderBy: { position: "asc" } });
  return {
    sweepIds: items.flatMap((i) => (i.sweepId ? [i.sweepId] : [])),
    revocationIds: items.flatMap((i) => (i.revocationId ? [i.revocationId] : [])),
  };
}
