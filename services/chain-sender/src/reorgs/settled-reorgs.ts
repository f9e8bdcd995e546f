import { countsAsSent, type ChainClient, type NodeReceipt } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { changeReorg } from "@sweep/lifecycle";
import { reorgedStep, reorgedTaken, settledPlace, settledWatchFrom } from "./reorg-rules";
import { batchWork, newestSettled, reorgedTransactions, settledFrom, type ReorgedTransaction } from "./reorg-store";
import { nextTakenRun, type AbandonRule, type TakenRun } from "../watch/watch-rules";
import type { WatchRound } from "../watch/watch-round";

export interface SettledReorgsOptions {
  db: Db;
  client: ChainClient;
  logger: Logger;
  /** the agreement the watcher asks before giving a nonce up, asked before calling a reorged transaction lost */
  abandon: AbandonRule;
}

/**
 * Reorgs deeper than the confirmation depth. Settled transactions are re-checked against the
 * canonical chain while within SETTLED_WATCH_BLOCKS of the head (one block read a round: the newest
 * settled block vouches for the older ones). One whose block left the chain is logged as an error
 * naming its batch, sweeps and revocations, counted, and its stored signed transaction sent again
 * while its nonce is free, until it is mined again and final (restored) or another transaction
 * holds its nonce, as rounds at later heads agree (lost: the operator's case). Its booking stands throughout, so nothing is booked
 * twice; the ledger's reconciliation books what the chain did meanwhile (docs/decisions.md).
 */
export class SettledReorgs {
  /** Per reorged transaction, the rounds in a row that saw its nonce taken. */
  private readonly takenRuns = new Map<string, TakenRun>();

  constructor(private readonly options: SettledReorgsOptions) {}

  private get chainId(): number {
    return this.options.client.chainId;
  }

  /**
   * One round; returns whether it had transactions to look at (settled within the window, or reorged).
   * `present` says which kinds the chain has (the watcher's one query): the others are not read.
   */
  async runOnce(round: WatchRound, present: { settled: boolean; reorged: boolean } = { settled: true, reorged: true }): Promise<boolean> {
    const settled = present.settled ? await this.checkSettled(round.head) : { found: false, marked: false };
    // One this round marked is followed at once, as are those marked before.
    if (!present.reorged && !settled.marked) {
      this.takenRuns.clear();
      return settled.found;
    }
    const reorged = await this.followReorged(round);
    return settled.found || reorged;
  }

  /** Whether any transaction is settled within the window, and whether this round marked one reorged. */
  private async checkSettled(head: number): Promise<{ found: boolean; marked: boolean }> {
    const { db, client, logger } = this.options;
    const from = settledWatchFrom(head);
    const newest = await newestSettled(db, this.chainId, from);
    if (!newest) return { found: false, marked: false };
    // One call a round: the chain's block at the newest settled one's number (a receipt a lagging backend lacks would read as a reorg).
    if (settledPlace(newest, await client.blockHashAt(newest.blockNumber)) !== "left") return { found: true, marked: false };

    const settled = await settledFrom(db, this.chainId, from);
    const canonical = new Map<number, string | null>();
    const marked: string[] = [];
    const nowIn = new Map<string, { blockNumber: number; blockHash: string } | null>();
    for (const transaction of settled) {
      if (!canonical.has(transaction.blockNumber)) canonical.set(transaction.blockNumber, await client.blockHashAt(transaction.blockNumber));
      if (settledPlace(transaction, canonical.get(transaction.blockNumber)!) !== "left") continue;
      // A second watcher (a leader's successor) that recorded it first reports it.
      if (!(await changeReorg(db, { id: transaction.id, chainId: this.chainId }, "reorged"))) continue;
      marked.push(transaction.id);
      const receipt = await client.receipt(transaction.hash).catch(() => null);
      nowIn.set(transaction.id, receipt ? { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash } : null);
    }
    if (marked.length === 0) return { found: true, marked: false };
    for (const transaction of await reorgedTransactions(db, this.chainId, marked)) {
      logger.error("a settled transaction's block left the canonical chain (a reorg deeper than the confirmations); its stored transaction is sent again", {
        chainId: this.chainId,
        ...(await this.describe(transaction)),
        head,
        nowIn: nowIn.get(transaction.id) ?? null,
      });
    }
    return { found: true, marked: true };
  }

  /** Returns whether any transaction is reorged (followed until restored or lost). */
  private async followReorged(round: WatchRound): Promise<boolean> {
    const { db, logger } = this.options;
    const followed = await reorgedTransactions(db, this.chainId);
    const ids = new Set(followed.map((t) => t.id));
    for (const id of this.takenRuns.keys()) if (!ids.has(id)) this.takenRuns.delete(id);
    for (const transaction of followed) {
      try {
        await this.follow(transaction, round);
      } catch (err) {
        logger.warn("could not follow a reorged transaction this round", { chainId: this.chainId, transactionId: transaction.id, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return followed.length > 0;
  }

  private async follow(transaction: ReorgedTransaction, { head, final: finalBlock }: WatchRound): Promise<void> {
    const { db, client, logger } = this.options;
    const final = await finalBlock();
    // The nonce count before the receipt, as the watcher does: a resend mined in between cannot pass for another transaction.
    const countAtDepth = await client.nonceAt(transaction.gasWallet, Math.max(0, final));
    // The receipt on its own: a null may be a lagging backend's, so only rounds at later heads that agree call it lost.
    const receipt = await client.receipt(transaction.hash);
    const takenRun = nextTakenRun(this.takenRuns.get(transaction.id), head, reorgedTaken({ nonce: transaction.nonce, receipt, countAtDepth }));
    if (takenRun) this.takenRuns.set(transaction.id, takenRun);
    else this.takenRuns.delete(transaction.id);
    const step = reorgedStep({ nonce: transaction.nonce, receipt, final, countAtDepth, takenRun, abandon: this.options.abandon });
    if (step === "wait") return;
    if (step === "resend") {
      const verdict = await client.broadcast(transaction.rawTx);
      const fields = { chainId: this.chainId, transactionId: transaction.id, hash: transaction.hash, nonce: transaction.nonce.toString(), verdict };
      if (!countsAsSent(verdict)) logger.warn("the node refused a reorged transaction sent again; retried next round", fields);
      else if (verdict === "accepted") logger.info("reorged transaction sent again", fields);
      return;
    }
    if (!(await changeReorg(db, { id: transaction.id, chainId: this.chainId }, step))) return;
    const described = await this.describe(transaction);
    if (step === "lost") {
      logger.error("another transaction took a reorged transaction's nonce: what the ledger booked for it is not on chain (docs/runbook.md, SweepSettledTransactionLost)", { chainId: this.chainId, ...described });
      return;
    }
    const same = sameOutcome(transaction, receipt!);
    const fields = { chainId: this.chainId, ...described, blockNumber: receipt!.blockNumber, blockHash: receipt!.blockHash, succeeded: receipt!.succeeded, gasUsed: receipt!.gasUsed.toString() };
    if (same) logger.warn("a reorged transaction is mined again, final: its booking stands", fields);
    else logger.error("a reorged transaction is mined again with another outcome than the one booked; its booking stands", { ...fields, booked: { succeeded: transaction.succeeded, gasUsed: transaction.gasUsed?.toString() } });
  }

  /** What a log line about a reorged transaction names: the transaction, its batch and the work it carried. */
  private async describe(transaction: ReorgedTransaction) {
    const work = await batchWork(this.options.db, transaction.batch?.id);
    return {
      transactionId: transaction.id,
      hash: transaction.hash,
      gasWallet: transaction.gasWallet,
      nonce: transaction.nonce.toString(),
      settledIn: { blockNumber: transaction.blockNumber, blockHash: transaction.blockHash },
      batchId: transaction.batch?.id ?? null,
      purpose: transaction.batch?.purpose ?? null,
      ...work,
    };
  }
}

function sameOutcome(booked: Pick<ReorgedTransaction, "succeeded" | "gasUsed">, receipt: NodeReceipt): boolean {
  return booked.succeeded === receipt.succeeded && booked.gasUsed === receipt.gasUsed;
}
