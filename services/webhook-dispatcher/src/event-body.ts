import { presentHotWallet, presentRevocation, presentSweep } from "@sweep/api-contract";
import type { Db, Prisma } from "@sweep/db";

/** The webhook body (the spec's Event). */
export interface EventBody {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/** The columns presentSweep reads, its hot wallet's address included. */
const sweepSelect = {
  id: true,
  externalId: true,
  chainId: true,
  hotWallet: { select: { address: true } },
  account: true,
  token: true,
  tokenAddress: true,
  amount: true,
  keepOneUnit: true,
  status: true,
  reason: true,
  attempts: true,
  sweptAmount: true,
  txHash: true,
  kind: true,
  gas: true,
  gasCost: true,
  fee: true,
  classicGas: true,
  rateBps: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.SweepSelect;

/** The columns presentRevocation reads. */
const revocationSelect = {
  id: true,
  externalId: true,
  chainId: true,
  account: true,
  status: true,
  reason: true,
  attempts: true,
  txHash: true,
  gas: true,
  gasCost: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.RevocationSelect;

/** The columns presentHotWallet reads. */
const hotWalletSelect = { chainId: true, address: true, delegate: true, status: true, error: true, txHash: true, createdAt: true } satisfies Prisma.HotWalletSelect;

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
  if (type.startsWith("sweep.")) return presentSweep(await db.sweep.findUniqueOrThrow({ where: subject("sweep"), select: sweepSelect }));
  if (type.startsWith("revocation.")) return presentRevocation(await db.revocation.findUniqueOrThrow({ where: subject("revocation"), select: revocationSelect }));
  if (type.startsWith("hot_wallet.")) return presentHotWallet(await db.hotWallet.findUniqueOrThrow({ where: subject("hot wallet"), select: hotWalletSelect }));
  // balance.low, webhook.test: the data was fixed when the event was recorded.
  return payload ?? {};
}
