import type { OutboxMessage, Prisma } from "@prisma/client";
import type { Pool } from "pg";
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

/** claimUnpublishedOutbox's statement, which pgOutboxRound sends through pg: $1 the exchange, $2 the limit. */
const CLAIM_UNPUBLISHED = `
SELECT id, message_id AS "messageId", exchange, routing_key AS "routingKey", type, payload, created_at AS "createdAt", published_at AS "publishedAt"
  FROM outbox
 WHERE published_at IS NULL AND exchange = $1
 ORDER BY id
 LIMIT $2
   FOR UPDATE SKIP LOCKED`;

/** markOutboxPublished's statement, also pgOutboxRound's: $1 the ids. */
const MARK_PUBLISHED = "UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[]) AND published_at IS NULL";

/**
 * Locks the oldest unpublished messages of one exchange for the caller's transaction. Rows another
 * relay holds are skipped, so concurrent relays never publish the same row at the same time; the
 * locks go with the transaction, also when its process dies.
 */
export function claimUnpublishedOutbox(tx: Tx, options: { exchange: string; limit: number }): Promise<OutboxMessage[]> {
  return tx.$queryRawUnsafe<OutboxMessage[]>(CLAIM_UNPUBLISHED, options.exchange, options.limit);
}

/**
 * A relay's round in one transaction: the oldest unpublished rows of an exchange locked
 * (claimUnpublishedOutbox), handed to `publish`, and the ids it answers marked published.
 */
export type OutboxRound = (options: { exchange: string; limit: number }, publish: (rows: OutboxMessage[]) => Promise<bigint[]>) => Promise<number>;

/** Through Prisma (an interactive transaction of `timeoutMs` at most): every service's relay. */
export function prismaOutboxRound(db: Db, timeoutMs: number): OutboxRound {
  return (options, publish) =>
    db.$transaction(
      async (tx) => {
        const published = await publish(await claimUnpublishedOutbox(tx, options));
        if (published.length > 0) await markOutboxPublished(tx, published);
        return published.length;
      },
      { timeout: timeoutMs },
    );
}

/**
 * The same round through pg, for a process whose relay runs hundreds of times a minute (the
 * api-gateway's, woken by every POST): Prisma's interactive transaction costs some 1.5 ms of CPU a
 * round (measured, issue 28). A process that dies or hangs mid-round lets go of its rows as
 * Prisma's would: the connection ends, or Postgres ends an idle transaction after `timeoutMs`.
 */
export function pgOutboxRound(pool: Pool, timeoutMs: number): OutboxRound {
  return async (options, publish) => {
    const client = await pool.connect();
    let failed: unknown;
    try {
      await client.query(`BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(timeoutMs)}`);
      const { rows } = await client.query<Omit<OutboxMessage, "id"> & { id: string }>({ name: "claim-unpublished-outbox", text: CLAIM_UNPUBLISHED, values: [options.exchange, options.limit] });
      const published = await publish(rows.map((row) => ({ ...row, id: BigInt(row.id) })));
      if (published.length > 0) {
        await client.query({ name: "mark-outbox-published", text: MARK_PUBLISHED, values: [published.map(String)] });
      }
      await client.query("COMMIT");
      return published.length;
    } catch (err) {
      failed = err;
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      // A connection whose round failed is not handed to the next one.
      client.release(failed instanceof Error ? failed : undefined);
    }
  };
}

/** Raw SQL: a relay round runs it with a different number of ids each time, which Prisma's query compiler would plan anew. */
export function markOutboxPublished(db: Db | Tx, ids: bigint[]): Promise<number> {
  return db.$executeRawUnsafe(MARK_PUBLISHED, ids);
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
