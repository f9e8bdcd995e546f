import type { ChainClient, NodeReceipt, Receipt } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { noncesRestoredTotal, revocationsFinalCorrected, sweepsFinalCorrected } from "@sweep/metrics";
import { batchPurposes } from "../batch-purposes";
import type { RevocationItemOutcome } from "./mined-outcomes";
import { settledWatchFrom } from "../reorgs/reorg-rules";
import type { AbandonedTransaction } from "../batch-types";
import { abandonedTransactions, restoreAbandoned } from "../transaction-store";
import { isFinal } from "@sweep/rpc";
import type { WatchRound } from "./watch-round";

/** The final-state counters' corrections, by kind: a restored item leaves the final state it was counted in. */
const finalCorrected = { sweep: sweepsFinalCorrected, revocation: revocationsFinalCorrected } as const;

export interface AbandonedTransactionsOptions {
  db: Db;
  names: QueueNames;
  client: ChainClient;
  logger: Logger;
  /** called after a restoration wrote outbox messages */
  outboxWritten?: () => void;
}

/**
 * Transactions whose nonce was given up, looked for on chain while within SETTLED_WATCH_BLOCKS of
 * the head they were given up at (one receipt each a round, each its own request). One found mined
 * at the confirmation depth was given up wrongly (its receipt withheld longer than the watcher's
 * rule allows): it is restored (restoreAbandoned), so its gas is booked once and its sweeps end as
 * the chain says, and logged as an error naming what the failure had told the partner. Each item it
 * takes out of a final state is counted in that state's correction counter (counters only grow).
 */
export class AbandonedTransactions {
  constructor(private readonly options: AbandonedTransactionsOptions) {}

  /** One round; returns whether it had given-up transactions to look for (none read when `present` says the chain has none). */
  async runOnce(round: WatchRound, present: { givenUp: boolean } = { givenUp: true }): Promise<boolean> {
    if (!present.givenUp) return false;
    const { db, names, client, logger } = this.options;
    const watched = await abandonedTransactions(db, client.chainId, settledWatchFrom(round.head));
    if (watched.length === 0) return false;
    const [receipts, final] = await Promise.all([client.receipts(watched.map((t) => t.hash)), round.final()]);
    for (const [i, abandoned] of watched.entries()) {
      const found = receipts[i];
      if (!found || !isFinal(found.blockNumber, final)) continue;
      const receipt = await this.costed(abandoned, found);
      if (!receipt) continue;
      const revocations = await this.chainOutcomes(abandoned, receipt);
      if (!revocations) continue;
      const restored = await restoreAbandoned(db, names, abandoned, receipt, logger, revocations);
      if (!restored) continue;
      this.options.outboxWritten?.();
      noncesRestoredTotal.inc({ chain_id: client.chainId });
      for (const { kind, status, reason } of restored.corrected) finalCorrected[kind].inc({ chain_id: client.chainId, status, reason });
      logger.error("a transaction whose nonce was given up was mined: restored, its gas booked and the sweeps or revocations it carried settled from the chain (their earlier failure is corrected)", {
        chainId: client.chainId,
        transactionId: abandoned.id,
        hash: abandoned.hash,
        nonce: abandoned.nonce.toString(),
        abandonedAtBlock: abandoned.abandonedAtBlock,
        blockNumber: receipt.blockNumber,
        batchId: abandoned.batch?.id ?? null,
        purpose: abandoned.batch?.purpose ?? null,
        sweepIds: restored.sweepIds,
        revocationIds: restored.revocationIds,
      });
    }
    return true;
  }

  /** The receipt with its L1 data fee (an OP-stack chain's), read once it is to be restored; null when the node does not answer: next round. */
  private async costed(abandoned: AbandonedTransaction, receipt: NodeReceipt): Promise<Receipt | null> {
    try {
      return await this.options.client.costed(receipt);
    } catch (err) {
      this.options.logger.warn("could not read the L1 data fee a given-up transaction found mined paid; restoring it next round", { hash: abandoned.hash, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }

  /** What the chain says of the items the restoration may take back (a revocation batch's accounts' code); null when the node does not answer: next round. */
  private async chainOutcomes(abandoned: AbandonedTransaction, receipt: Receipt): Promise<RevocationItemOutcome[] | null> {
    if (!abandoned.batch) return [];
    try {
      return await batchPurposes[abandoned.batch.purpose].chainOutcomes(this.options.db, this.options.client, abandoned.batch, receipt, true);
    } catch (err) {
      this.options.logger.warn("could not read the revoked accounts' code of a given-up transaction found mined; restoring it next round", { hash: abandoned.hash, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }
}
