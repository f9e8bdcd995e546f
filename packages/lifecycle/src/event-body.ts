import { presentDeposit, presentHotWallet, presentRevocation, presentSweep } from "@sweep/api-contract";
import { depositViewSelect, hotWalletViewSelect, revocationViewSelect, sweepViewSelect, type Db, type Prisma } from "@sweep/db";

/** The webhook body (the spec's Event). */
export interface EventBody {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/** The event of a delivery, as its claim read it. */
export interface DeliveredEvent {
  eventId: string;
  eventType: string;
  subjectId: string | null;
  eventCreatedAt: Date;
  eventPayload: Prisma.JsonValue;
}

/**
 * The body of an event as delivered now: a sweep, revocation, hot wallet or deposit as it is at this
 * attempt (the GET shape), other events with the data they were recorded with. Throws when the
 * subject is gone (an internal failure: the attempt is retried).
 */
export async function loadEventBody(db: Db, event: DeliveredEvent): Promise<EventBody> {
  return { id: event.eventId, type: event.eventType, created_at: event.eventCreatedAt.toISOString(), data: await eventData(db, event.eventType, event.subjectId, event.eventPayload) };
}

async function eventData(db: Db, type: string, subjectId: string | null, payload: Prisma.JsonValue): Promise<unknown> {
  const subject = (what: string) => {
    if (subjectId === null) throw new Error(`${type} event without its ${what}`);
    return { id: subjectId };
  };
  if (type.startsWith("sweep.")) return presentSweep(await db.sweep.findUniqueOrThrow({ where: subject("sweep"), select: sweepViewSelect }));
  if (type.startsWith("revocation.")) return presentRevocation(await db.revocation.findUniqueOrThrow({ where: subject("revocation"), select: revocationViewSelect }));
  if (type.startsWith("hot_wallet.")) return presentHotWallet(await db.hotWallet.findUniqueOrThrow({ where: subject("hot wallet"), select: hotWalletViewSelect }));
  if (type.startsWith("deposit.")) return presentDeposit(await db.deposit.findUniqueOrThrow({ where: subject("deposit"), select: depositViewSelect }));
  // balance.low, webhook.test, deposit_address.*: the data was fixed when the event was recorded.
  return payload ?? {};
}
