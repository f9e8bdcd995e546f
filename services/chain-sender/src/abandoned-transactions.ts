import type { ChainClient } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { noncesRestoredTotal } from "@sweep/metrics";
import { settledWatchFrom } from "./reorg-rules";
import { abandonedTransactions, restoreAbandoned } from "./transaction-store";
import { isFinal } from "./watch-rules";

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
 * the chain says, and logged as an error naming what the failure had told the partner.
 */
export class AbandonedTransactions {
  constructor(private readonly options: AbandonedTransactionsOptions) {}

  async runOnce(head: number): Promise<void> {
    const { db, names, client, logger } = this.options;
    const watched = await abandonedTransactions(db, client.chainId, settledWatchFrom(head));
    if (watched.length === 0) return;
    const receipts = await client.receipts(watched.map((t) => t.hash));
    for (const [i, abandoned] of watched.entries()) {
      const receipt = receipts[i];
      if (!receipt || !isFinal(receipt.blockNumber, head, client.chain.confirmations)) continue;
      const restored = await restoreAbandoned(db, names, abandoned, receipt, logger);
      if (!restored) continue;
      this.options.outboxWritten?.();
      noncesRestoredTotal.inc({ chain_id: client.chainId });
      logger.error("a transaction whose nonce was given up was mined: restored, its gas booked and its sweeps settled from its receipt (their earlier failure is corrected)", {
        chainId: client.chainId,
        transactionId: abandoned.id,
        hash: abandoned.hash,
        nonce: abandoned.nonce.toString(),
        abandonedAtBlock: abandoned.abandonedAtBlock,
        blockNumber: receipt.blockNumber,
        batchId: abandoned.batch?.id ?? null,
        purpose: abandoned.batch?.purpose ?? null,
        sweepIds: restored.sweepIds,
      });
    }
  }
}
