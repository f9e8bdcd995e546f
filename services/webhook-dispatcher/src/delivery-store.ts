import type { Db, Prisma } from "@sweep/db";
import { states } from "@sweep/lifecycle";

/** A delivery this dispatcher holds until its lease runs out. */
export interface ClaimedDelivery {
  eventId: string;
  partnerId: string;
  /** the event's type and the sweep, revocation or hot wallet it is about (null for balance.low, webhook.test) */
  eventType: string;
  subjectId: string | null;
  /** the event's own time and recorded data, for its body */
  eventCreatedAt: Date;
  eventPayload: Prisma.JsonValue;
  /** attempts before this one */
  attempts: number;
  /** the next_attempt_at written by the claim; the result is recorded only while it is still there */
  lease: Date;
}

/** How many deliveries a claim may take: in all, and per partner beside its attempts under way. */
export interface ClaimRoom {
  /** free attempt slots of this dispatcher */
  limit: number;
  /** a partner's share: its attempts under way plus those claimed never exceed it */
  perPartner: number;
  /** this dispatcher's attempts under way, by partner (partners absent have none) */
  inFlight: ReadonlyMap<string, number>;
}

/**
 * Claims due deliveries in one statement: their rows are locked while they are picked (SKIP
 * LOCKED: another dispatcher takes others), and next_attempt_at moves to the lease, so no other
 * dispatcher takes them until it ends; a dispatcher that dies mid-attempt leaves them due again then.
 *
 * Fair between partners: each partner's due deliveries are numbered in its own order (a window over
 * partner_id) after its attempts under way, a partner gets none past its share, and the free slots
 * go by that number first (round-robin): a partner with hundreds due and a hanging endpoint takes
 * its share, never the room another partner's first delivery needs.
 */
export function claimDueDeliveries(db: Db, now: Date, lease: Date, room: ClaimRoom): Promise<ClaimedDelivery[]> {
  const busyPartners = [...room.inFlight.keys()];
  const busyAttempts = busyPartners.map((partnerId) => room.inFlight.get(partnerId)!);
  return db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d SET next_attempt_at = ${lease}
      FROM events e
     WHERE e.id = d.event_id AND d.event_id IN (
       SELECT w.event_id
         FROM webhook_deliveries w
         JOIN (SELECT due.event_id,
                      COALESCE(busy.attempts, 0) + row_number() OVER (PARTITION BY due.partner_id ORDER BY due.next_attempt_at, due.seq) AS slot
                 FROM webhook_deliveries due
                 LEFT JOIN unnest(${busyPartners}::uuid[], ${busyAttempts}::int[]) AS busy(partner_id, attempts) ON busy.partner_id = due.partner_id
                WHERE due.status = ${states.delivery.pending}::"DeliveryStatus" AND due.next_attempt_at <= ${now}) turn ON turn.event_id = w.event_id
        WHERE turn.slot <= ${room.perPartner} AND w.status = ${states.delivery.pending}::"DeliveryStatus" AND w.next_attempt_at <= ${now}
        ORDER BY turn.slot, w.next_attempt_at, w.seq LIMIT ${room.limit}
        FOR UPDATE OF w SKIP LOCKED)
    RETURNING d.event_id::text AS "eventId", d.partner_id::text AS "partnerId", e.type AS "eventType", e.subject_id::text AS "subjectId",
              e.created_at AS "eventCreatedAt", e.payload AS "eventPayload", d.attempts, d.next_attempt_at AS lease`;
}

/**
 * When the earliest pending delivery comes due (a retry's pause or a claim's lease ending; it may be
 * past already); null when none is pending. Served by the `(status, next_attempt_at)` index.
 */
export async function nextPendingAt(db: Db): Promise<Date | null> {
  const [row] = await db.$queryRaw<Array<{ at: Date | null }>>`
    SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = ${states.delivery.pending}::"DeliveryStatus"`;
  return row?.at ?? null;
}

/**
 * The pending deliveries: how many, the oldest's age from its event, and how long the one furthest
 * behind its schedule has been due (next_attempt_at passed; a claimed one's is its lease, ahead), 0
 * when none. Served by the `(status, next_attempt_at)` index; only pending rows are read.
 */
export async function deliveryBacklog(db: Db): Promise<{ pending: number; oldestAgeSeconds: number; overdueSeconds: number }> {
  const [row] = await db.$queryRaw<Array<{ pending: number; oldestAgeSeconds: number; overdueSeconds: number }>>`
    SELECT count(*)::int AS pending,
           COALESCE(GREATEST(0, EXTRACT(EPOCH FROM now() - min(created_at))), 0)::float8 AS "oldestAgeSeconds",
           COALESCE(GREATEST(0, EXTRACT(EPOCH FROM now() - min(next_attempt_at))), 0)::float8 AS "overdueSeconds"
      FROM webhook_deliveries
     WHERE status = ${states.delivery.pending}::"DeliveryStatus"`;
  return row ?? { pending: 0, oldestAgeSeconds: 0, overdueSeconds: 0 };
}
