import type { OutboxMessage, Prisma } from "@prisma/client";
import type { Db, Tx } from "./client";

export interface OutboxDraft {
  exchange: string;
  routingKey: string;
  type: string;
  payload: Prisma.InputJsonValue;
}

/** Writes a message in the caller's transaction, so it exists exactly when the state it announces does. */
export function enqueueOutbox(tx: Tx, draft: OutboxDraft) {
  return tx.outboxMessage.create({ data: draft });
}

/**
 * Locks the oldest unpublished messages of one exchange for the caller's transaction. Rows another
 * relay holds are skipped, so concurrent relays never publish the same row at the same time; the
 * locks go with the transaction, also when its process dies.
 */
export function claimUnpublishedOutbox(tx: Tx, options: { exchange: string; limit: number }): Promise<OutboxMessage[]> {
  return tx.$queryRaw<OutboxMessage[]>`
    SELECT id, message_id AS "messageId", exchange, routing_key AS "routingKey", type, payload,
           created_at AS "createdAt", published_at AS "publishedAt"
      FROM outbox
     WHERE published_at IS NULL AND exchange = ${options.exchange}
     ORDER BY id
     LIMIT ${options.limit}
       FOR UPDATE SKIP LOCKED`;
}

export function markOutboxPublished(db: Db | Tx, ids: bigint[]) {
  return db.outboxMessage.updateMany({ where: { id: { in: ids }, publishedAt: null }, data: { publishedAt: new Date() } });
}

/** What one exchange's relay has still to publish: the rows, and the oldest one's age (0 when none). */
export async function outboxBacklog(db: Db, exchange: string): Promise<{ messages: number; oldestAgeSeconds: number }> {
  const [row] = await db.$queryRaw<Array<{ messages: number; oldestAgeSeconds: number }>>`
    SELECT count(*)::int AS messages,
           COALESCE(GREATEST(0, EXTRACT(EPOCH FROM now() - min(created_at))), 0)::float8 AS "oldestAgeSeconds"
      FROM outbox
     WHERE published_at IS NULL AND exchange = ${exchange}`;
  return row ?? { messages: 0, oldestAgeSeconds: 0 };
}
