import { randomUUID } from "node:crypto";
import type { EventType } from "@sweep/api-contract";
import type { Prisma, Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";

// The types the OpenAPI document gives the webhooks: an event type is added there first.
export type { EventType };

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

function dedupeKeyOf(draft: EventDraft): string | null {
  if (draft.dedupeKey !== undefined) return draft.dedupeKey;
  return draft.subjectId ? `${draft.type}:${draft.subjectId}` : null;
}

/**
 * Records events in the caller's transaction, each with its webhook delivery (pending, when its
 * partner has a webhook) and the outbox message that wakes the webhook dispatcher for it, in four
 * statements however many there are. Returns each draft's event id, or null when its dedupe key was
 * recorded before, by an earlier call or an earlier draft.
 */
export async function recordEvents(tx: Tx, names: QueueNames, drafts: readonly EventDraft[]): Promise<Array<string | null>> {
  const keys = drafts.map(dedupeKeyOf);
  const keyed = keys.filter((key): key is string => key !== null);
  const taken = new Set<string>();
  if (keyed.length > 0) {
    const existing = await tx.event.findMany({ where: { dedupeKey: { in: keyed } }, select: { dedupeKey: true } });
    for (const event of existing) taken.add(event.dedupeKey!);
  }

  const events: Array<Prisma.EventCreateManyInput & { id: string }> = [];
  const ids = drafts.map((draft, i) => {
    const dedupeKey = keys[i]!;
    if (dedupeKey !== null) {
      if (taken.has(dedupeKey)) return null;
      taken.add(dedupeKey);
    }
    // Ids made here rather than by the insert, so they need not be matched back to the drafts.
    const id = randomUUID();
    events.push({ id, partnerId: draft.partnerId, type: draft.type, subjectId: draft.subjectId, payload: draft.payload, dedupeKey });
    return id;
  });
  if (events.length === 0) return ids;

  await tx.event.createMany({ data: events });
  // Opened here, not by the dispatcher, so the delivery is listed as soon as the change that caused
  // the event is answered (the spec's "event recorded, a webhook is set: pending").
  await tx.$executeRaw`
    INSERT INTO webhook_deliveries (event_id, partner_id, status, attempts, next_attempt_at, created_at)
    SELECT e.id, e.partner_id, 'pending', 0, now(), e.created_at
      FROM events e JOIN webhooks w ON w.partner_id = e.partner_id
     WHERE e.id = ANY(${events.map((event) => event.id)}::uuid[])`;
  await tx.outboxMessage.createMany({ data: events.map((event) => outboxDraft("event.recorded", { eventId: event.id }, names)) });
  return ids;
}

/** One event, as recordEvents records it. */
export async function recordEvent(tx: Tx, names: QueueNames, draft: EventDraft): Promise<string | null> {
  const [id] = await recordEvents(tx, names, [draft]);
  return id ?? null;
}
