import type { Prisma } from "@prisma/client";
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

export function enqueueOutboxMany(tx: Tx, drafts: OutboxDraft[]) {
  return tx.outboxMessage.createMany({ data: drafts });
}

/** Oldest unpublished messages first. */
export function unpublishedOutbox(db: Db, limit: number) {
  return db.outboxMessage.findMany({ where: { publishedAt: null }, orderBy: { id: "asc" }, take: limit });
}

export function markOutboxPublished(db: Db, ids: bigint[]) {
  return db.outboxMessage.updateMany({ where: { id: { in: ids }, publishedAt: null }, data: { publishedAt: new Date() } });
}
