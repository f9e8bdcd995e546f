import type { Prisma, Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";

export type EventType =
  | "sweep.swept"
  | "sweep.failed"
  | "sweep.rejected"
  | "revocation.revoked"
  | "revocation.failed"
  | "revocation.rejected"
  | "hot_wallet.active"
  | "hot_wallet.failed"
  | "balance.low"
  | "webhook.test";

export interface EventDraft {
  partnerId: string;
  type: EventType;
  /** the sweep, revocation or hot wallet: its data is read when the event is delivered */
  subjectId?: string;
  /** data fixed at the time of the event (balance.low, webhook.test) */
  payload?: Prisma.InputJsonValue;
  /**
   * Makes recording idempotent (a redelivered message records nothing new). Defaults to
   * `<type>:<subjectId>`: one event per final state. Pass null where repeats are wanted.
   */
  dedupeKey?: string | null;
}

/**
 * Records an event in the caller's transaction, with the outbox message that announces it to the
 * webhook dispatcher. Returns the event id, or null when it was recorded before.
 */
export async function recordEvent(tx: Tx, names: QueueNames, draft: EventDraft): Promise<string | null> {
  const dedupeKey = draft.dedupeKey === undefined ? (draft.subjectId ? `${draft.type}:${draft.subjectId}` : null) : draft.dedupeKey;
  if (dedupeKey !== null && (await tx.event.findUnique({ where: { dedupeKey }, select: { id: true } }))) return null;
  const event = await tx.event.create({
    data: { partnerId: draft.partnerId, type: draft.type, subjectId: draft.subjectId, payload: draft.payload, dedupeKey },
    select: { id: true },
  });
  await tx.outboxMessage.create({ data: outboxDraft("event.recorded", { eventId: event.id }, names) });
  return event.id;
}
