import { PollingLoop } from "@sweep/worker";
import type { Logger } from "@sweep/common";
import { outboxBacklog, prismaOutboxRound, type Db, type OutboxRound } from "@sweep/db";
import { reportOutboxBacklog } from "@sweep/metrics";
import type { Publisher } from "./publisher";

export interface OutboxRelayOptions {
  db: Db;
  publisher: Pick<Publisher, "publishEnvelope">;
  /** The relay takes only rows bound for this exchange (the topology's work exchange, which it declared). */
  exchange: string;
  logger: Logger;
  batchSize?: number;
  pollIntervalMs?: number;
  /** Longest pause after failed rounds (the pause doubles per failure from pollIntervalMs). */
  maxBackoffMs?: number;
  /** Longest pause after rounds that found nothing (the pause doubles per empty round from pollIntervalMs). */
  idleMaxMs?: number;
  /**
   * A wake starts the next round this long after it, not at once: the rows that concurrent writers
   * commit meanwhile share that round (one transaction) instead of a round each. For a process that
   * wakes its relay per request (the api-gateway); without it, at once.
   */
  wakeDelayMs?: number;
  /** Bounds a round: claiming, publishing (publisher's own timeout) and marking. */
  transactionTimeoutMs?: number;
  /** how a round reaches Postgres (pgOutboxRound); through `db`'s Prisma without */
  round?: OutboxRound;
}

/**
 * Publishes outbox rows, oldest first, with publisher confirms, then marks them published.
 *
 * A round claims rows with FOR UPDATE SKIP LOCKED and keeps them locked while it publishes and marks
 * them in the same transaction, so several relays can run without publishing one row concurrently.
 * A crash before the publish leaves the row unpublished (its lock dies with the connection); a
 * crash after the publish and before the commit publishes it again later: at least once, and the
 * consumers are idempotent.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly loop: PollingLoop;
  private stopReadingBacklog?: () => void;
  private delayedWake?: NodeJS.Timeout;
  private readonly round: OutboxRound;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.round = options.round ?? prismaOutboxRound(options.db, options.transactionTimeoutMs ?? 30_000);
    this.loop = new PollingLoop({
      name: "outbox_relay",
      intervalMs: options.pollIntervalMs ?? 250,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      // A full round leaves rows behind: the next one at once. Every writer wakes its relay after its commit, so an
      // empty round rests longer: the poll only finds what a crashed writer left.
      round: async () => {
        const published = await this.relayOnce();
        return published === this.batchSize ? "again" : published === 0 ? "idle" : undefined;
      },
      idleMaxMs: options.idleMaxMs ?? 2_000,
      failed: (err, failures) => options.logger.error("outbox relay round failed", { error: String(err), failures }),
    });
  }

  /** Runs rounds until stop(): at once while rows keep coming, otherwise every poll interval or when woken. */
  start(): void {
    this.loop.start();
    this.stopReadingBacklog ??= reportOutboxBacklog(() => outboxBacklog(this.options.db, this.options.exchange));
  }

  /** Starts a round now (or after wakeDelayMs), e.g. right after a transaction that wrote outbox rows committed. */
  wake(): void {
    const delayMs = this.options.wakeDelayMs ?? 0;
    if (delayMs === 0) return this.loop.wake();
    // One timer for all the wakes of its delay.
    this.delayedWake ??= setTimeout(() => {
      this.delayedWake = undefined;
      this.loop.wake();
    }, delayMs);
  }

  /** Finishes the round under way. */
  async stop(): Promise<void> {
    clearTimeout(this.delayedWake);
    this.delayedWake = undefined;
    this.stopReadingBacklog?.();
    await this.loop.stop();
  }

  /** One round; returns how many rows were published. */
  async relayOnce(): Promise<number> {
    const { publisher, logger } = this.options;
    return this.round({ exchange: this.options.exchange, limit: this.batchSize }, async (rows) => {
      // Published concurrently on one channel: the broker keeps their order.
      const results = await Promise.allSettled(
        rows.map((row) => publisher.publishEnvelope(row.exchange, row.routingKey, { messageId: row.messageId, type: row.type, timestamp: row.createdAt, payload: row.payload })),
      );
      const published: bigint[] = [];
      results.forEach((result, i) => {
        const row = rows[i]!;
        if (result.status === "fulfilled") published.push(row.id);
        else logger.error("outbox publish failed; will retry", { outboxId: row.id.toString(), messageId: row.messageId, error: String(result.reason) });
      });
      return published;
    });
  }
}
