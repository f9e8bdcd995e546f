import { toDecimal, type Db, type Prisma, type TxStatus, type Tx } from "@sweep/db";
import { settledReorgsTotal } from "@sweep/metrics";
import { states } from "./states";
import { fromStates, isCorrection, isTransition } from "./transitions";

/**
 * The changes of a stored transaction's state, and of a settled one's reorg, each guarded by the
 * transition table (or its corrections): a change finds only the rows still in a state it starts
 * from, so a second watcher changes nothing, and one the table does not allow throws, writing nothing.
 */

/** A signed transaction's columns, but its state: every one is stored signed, before any broadcast. */
export type TransactionDraft = Omit<Prisma.ChainTransactionUncheckedCreateInput, "id" | "status" | "reorg" | "reorgedAt">;

const storedFields = { id: true, hash: true, rawTx: true, nonce: true } as const;

/** null → signed: a transaction stored before it is broadcast (a batch's, a split's, a replacement, a gap fill). */
export async function storeTransaction(db: Db | Tx, draft: TransactionDraft): Promise<{ id: string; hash: string; rawTx: string; nonce: bigint }> {
  return db.chainTransaction.create({ data: { ...draft, status: "signed" }, select: storedFields });
}

/** What the settling receipt says of a mined transaction. */
export interface MinedReceipt {
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  /** the L1 data fee an OP-stack chain charged beyond gas used × price; 0 elsewhere */
  l1Fee: bigint;
  /** the least L1 data fee of its block (a classic transfer's); 0 where the chain charges none */
  minimumL1Fee: bigint;
  blockNumber: number;
  blockHash: string;
  succeeded: boolean;
}

export type TransactionChange =
  | { to: "broadcast" }
  /** `abandonedAtBlock`: the head it was given up at; its receipt is looked for a while after */
  | { to: "dropped"; abandonedAtBlock: number }
  | { to: "confirmed"; receipt: MinedReceipt }
  | { to: "replaced" };

/** The transactions a change is made to: these, or the others of a mined one's nonce. */
export type ChangedTransactions = { ids: readonly string[] } | { othersOfNonce: { chainId: number; gasWalletId: string; nonce: bigint; mined: string } };

function changedColumns(change: TransactionChange): Prisma.ChainTransactionUpdateManyMutationInput {
  switch (change.to) {
    case "broadcast":
      return { status: "broadcast", broadcastAt: new Date() };
    case "dropped":
      return { status: "dropped", abandonedAtBlock: BigInt(change.abandonedAtBlock) };
    case "confirmed": {
      const { receipt } = change;
      return {
        status: "confirmed",
        gasUsed: receipt.gasUsed,
        effectiveGasPrice: toDecimal(receipt.effectiveGasPrice),
        l1Fee: toDecimal(receipt.l1Fee),
        minimumL1Fee: toDecimal(receipt.minimumL1Fee),
        blockNumber: BigInt(receipt.blockNumber),
        blockHash: receipt.blockHash,
        succeeded: receipt.succeeded,
        minedAt: new Date(),
      };
    }
    case "replaced":
      return { status: "replaced" };
  }
}

/**
 * → `change.to`, by the chain-sender, of the transactions still in a state the table lets the
 * change start from, or in `from` where the caller narrows it (each a change the table or its
 * corrections allow: a refused transaction is dropped only while signed, one given up is confirmed
 * only from dropped). Returns how many changed.
 */
export async function changeTransactions(db: Db | Tx, which: ChangedTransactions, change: TransactionChange, from?: readonly TxStatus[]): Promise<number> {
  const starts = from ?? fromStates("transaction", change.to);
  const illegal = starts.filter((state) => !isTransition("transaction", state, change.to) && !isCorrection("transaction", state, change.to));
  if (illegal.length > 0) throw new Error(`no change of a transaction leads from ${illegal.join(", ")} into ${change.to}`);
  const rows: Prisma.ChainTransactionWhereInput =
    "ids" in which
      ? { id: { in: [...which.ids] } }
      : { chainId: which.othersOfNonce.chainId, gasWalletId: which.othersOfNonce.gasWalletId, nonce: which.othersOfNonce.nonce, id: { not: which.othersOfNonce.mined } };
  const { count } = await db.chainTransaction.updateMany({ where: { ...rows, status: { in: [...starts] } }, data: changedColumns(change) });
  return count;
}

export type ReorgChange = "reorged" | "restored" | "lost";

/**
 * A settled transaction's reorg, by the chain-sender: reorged (its block left the canonical chain;
 * only a confirmed one not reorged before), then restored or lost (only a reorged one). Counted in
 * sweep_settled_reorgs_total (reorged as detected) when it changed; false when another watcher
 * recorded it first.
 */
export async function changeReorg(db: Db | Tx, transaction: { id: string; chainId: number }, to: ReorgChange): Promise<boolean> {
  // Reorged starts the machine (the table's null): only a confirmed transaction's block can leave the chain.
  const where: Prisma.ChainTransactionWhereInput =
    to === "reorged" ? { id: transaction.id, status: states.transaction.confirmed, reorg: null } : { id: transaction.id, reorg: { in: fromStates("reorg", to) } };
  const { count } = await db.chainTransaction.updateMany({ where, data: to === "reorged" ? { reorg: to, reorgedAt: new Date() } : { reorg: to } });
  if (count === 0) return false;
  settledReorgsTotal.inc({ chain_id: transaction.chainId, outcome: to === "reorged" ? "detected" : to });
  return true;
}
