import { Prisma, type Db, type DeliveryStatus, type Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { fromStates } from "./transitions";

/**
 * The changes of a webhook delivery's state after it was opened with its event (events.ts), each
 * guarded by the transition table.
 */

/**
 * null → pending, by the webhook-dispatcher: the delivery of a recorded event, opened here if
 * recordEvents did not open it with the event (a message recorded before it did so) and its partner
 * had its webhook when the event was recorded (created_at is the event's): a replayed old message
 * opens nothing for a webhook set after its event, whose receiver never asked for it (GET /v1/events
 * has it). Idempotent: a redelivered message finds the row there. Returns the delivery's status, null when the event has none (no webhook): the statement's
 * own snapshot misses the row it inserts, hence the insert's RETURNING beside it.
 */
export async function openDelivery(db: Db, eventId: string, now: Date): Promise<DeliveryStatus | null> {
  const [row] = await db.$queryRaw<Array<{ status: DeliveryStatus }>>`
    WITH opened AS (
      INSERT INTO webhook_deliveries (event_id, partner_id, status, attempts, next_attempt_at, created_at)
      SELECT e.id, e.partner_id, 'pending', 0, ${now}, e.created_at
        FROM events e JOIN webhooks w ON w.partner_id = e.partner_id AND w.created_at <= e.created_at
       WHERE e.id = ${eventId}::uuid
      ON CONFLICT (event_id) DO NOTHING
      RETURNING status)
    SELECT status::text AS status FROM opened
    UNION ALL
    SELECT status::text FROM webhook_deliveries WHERE event_id = ${eventId}::uuid`;
  return row?.status ?? null;
}

/** A delivery a dispatcher claimed: it records the attempt only while its lease is still there. */
export interface HeldDelivery {
  eventId: string;
  /** attempts before this one */
  attempts: number;
  /** the next_attempt_at the claim wrote */
  lease: Date;
}

export type DeliveryAttempt =
  | { outcome: "delivered"; statusCode: number; at: Date }
  /** `next`: pending again at its time, or failed when attempts ran out */
  | { outcome: "failed"; statusCode: number | null; error: string; next: { status: "pending"; nextAttemptAt: Date } | { status: "failed"; nextAttemptAt: null } }
  /** the webhook was deleted since the event: nothing was sent, and no attempt is counted */
  | { outcome: "webhook_removed" };

const REMOVED = "webhook removed";

function attemptChange(held: HeldDelivery, attempt: DeliveryAttempt): Prisma.WebhookDeliveryUpdateManyMutationInput & { status: "delivered" | "pending" | "failed" } {
  switch (attempt.outcome) {
    case "delivered":
      return { status: "delivered", attempts: held.attempts + 1, deliveredAt: attempt.at, lastStatusCode: attempt.statusCode, lastError: null, nextAttemptAt: null };
    case "failed":
      return { status: attempt.next.status, attempts: held.attempts + 1, lastStatusCode: attempt.statusCode, lastError: attempt.error, nextAttemptAt: attempt.next.nextAttemptAt };
    case "webhook_removed":
      return { status: "failed", lastStatusCode: null, lastError: REMOVED, nextAttemptAt: null };
  }
}

/**
 * pending → delivered, pending again or failed, by the webhook-dispatcher: one attempt's outcome.
 * False when the claim is no longer held (the webhook was deleted meanwhile, or the lease ran out
 * and another attempt took over): nothing is recorded then.
 */
export async function recordDeliveryAttempt(db: Db | Tx, held: HeldDelivery, attempt: DeliveryAttempt): Promise<boolean> {
  const data = attemptChange(held, attempt);
  const { count } = await db.webhookDelivery.updateMany({
    where: { eventId: held.eventId, status: { in: fromStates("delivery", data.status, "webhook-dispatcher") }, nextAttemptAt: held.lease },
    data,
  });
  return count === 1;
}

/**
 * delivered or failed → pending, by the api-gateway: the event's delivery starts over (attempts
 * from 0, the last outcome cleared) with a new seq, so it heads the log, and an `event.recorded`
 * message wakes a dispatcher, as for a new event. A pending one is left as it is (a dispatcher may
 * hold it). Returns whether it changed.
 */
export async function reopenDelivery(tx: Tx, names: QueueNames, delivery: { eventId: string; partnerId: string }): Promise<boolean> {
  const reopened = await tx.$executeRaw`
    UPDATE webhook_deliveries
       SET status = 'pending', attempts = 0, last_status_code = NULL, last_error = NULL, delivered_at = NULL,
           next_attempt_at = now(), seq = nextval(pg_get_serial_sequence('webhook_deliveries', 'seq'))
     WHERE event_id = ${delivery.eventId}::uuid AND partner_id = ${delivery.partnerId}::uuid
       AND status = ANY(${fromStates("delivery", "pending", "api-gateway")}::"DeliveryStatus"[])`;
  if (reopened === 1) await tx.outboxMessage.create({ data: outboxDraft("event.recorded", { eventId: delivery.eventId }, names) });
  return reopened === 1;
}

/** pending → failed, by the api-gateway: the partner's webhook was deleted, so its deliveries not yet made are dropped. */
export async function dropPendingDeliveries(tx: Tx, partnerId: string): Promise<number> {
  const { count } = await tx.webhookDelivery.updateMany({
    where: { partnerId, status: { in: fromStates("delivery", "failed", "api-gateway") } },
    data: { status: "failed", lastError: REMOVED, nextAttemptAt: null },
  });
  return count;
}
