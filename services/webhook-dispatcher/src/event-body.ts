import { presentHotWallet, presentRevocation, presentSweep } from "@sweep/api-contract";
import { hotWalletViewSelect, revocationViewSelect, sweepViewSelect, type Db, type Prisma } from "@sweep/db";

/** The webhook body (the spec's Event). */
export interface EventBody {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/**
 * The body of an event as delivered now: a sweep, revocation or hot wallet as it is at this
 * attempt (the GET shape), other events with the data they were recorded with. Throws when the
 * event or its subject is gone (an internal failure: the attempt is retried).
 */
export async function loadEventBody(db: Db, eventId: string): Promise<EventBody> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { id: true, type: true, subjectId: true, payload: true, createdAt: true } });
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: await eventData(db, event.type, event.subjectId, event.payload) };
}

async function eventData(db: Db, type: string, subjectId: string | null, payload: Prisma.JsonValue): Promise<unknown> {
  const subject = (what: string) => {
    if (subjectId === null) throw new Error(`${type} event without its ${what}`);
    return { id: subjectId };
  };
  if (type.startsWith("sweep.")) return presentSweep(await db.sweep.findUniqueOrThrow({ where: subject("sweep"), select: sweepViewSelect }));
  if (type.startsWith("revocation.")) return presentRevocation(await db.revocation.findUniqueOrThrow({ where: subject("revocation"), select: revocationViewSelect }));
  if (type.startsWith("hot_wallet.")) return presentHotWallet(await db.hotWallet.findUniqueOrThrow({ where: subject("hot wallet"), select: hotWalletViewSelect }));
  // balance.low, webhook.test: the data was fixed when the event was recorded.
  return payload ?? {};
}
