import { randomBytes, randomUUID } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { createLogger } from "@sweep/common";
import { createDb, type Db } from "@sweep/db";
import { recordEvent, type EventType } from "@sweep/lifecycle";
import { deleteTopology, openMessaging, type Messaging } from "@sweep/messaging";
import { createTestDatabase, createTestPartner, eventually } from "@sweep/testkit";
import { getAddress, hexlify } from "ethers";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

/** A database and a topology of their own, for dispatcher processes started on them. */
export interface DispatcherWorld {
  db: Db;
  databaseUrl: string;
  prefix: string;
  messaging: Messaging;
  close(): Promise<void>;
}

export async function openWorld(name: string): Promise<DispatcherWorld> {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const prefix = `${name}-${randomUUID().slice(0, 8)}`;
  const messaging = await openMessaging({ url: RABBITMQ_URL, chainIds: environmentChainIds("testnet"), prefix, logger: createLogger(name, "error") });
  return {
    db,
    databaseUrl: database.url,
    prefix,
    messaging,
    close: async () => {
      await deleteTopology(RABBITMQ_URL, messaging.topology);
      for (const closer of [...messaging.closers].reverse()) await closer.close();
      await db.$disconnect();
      await database.drop();
    },
  };
}

/** A partner whose webhook is `url`; returns its id and the webhook's secret. */
export async function partnerWithWebhook(db: Db, url: string | null): Promise<{ partnerId: string; secret: string }> {
  const { partnerId } = await createTestPartner(db, "webhook test partner");
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  if (url !== null) await db.webhook.create({ data: { partnerId, url, secret } });
  return { partnerId, secret };
}

/** An event as recordEvent wrote it before it opened deliveries, announced on the events queue as the outbox relay would. */
export async function recordAndAnnounce(world: DispatcherWorld, partnerId: string, type: EventType, fields: { subjectId?: string; payload?: object } = {}): Promise<string> {
  const event = await world.db.event.create({ data: { partnerId, type, subjectId: fields.subjectId, payload: fields.payload } });
  await world.messaging.publisher.publish("event.recorded", { eventId: event.id });
  return event.id;
}

/** An event as recordEvent records it today, its delivery opened with it, announced as the outbox relay would. */
export async function recordWithDelivery(world: DispatcherWorld, partnerId: string, type: EventType, payload: object): Promise<string> {
  const eventId = await world.db.$transaction((tx) => recordEvent(tx, world.messaging.topology.names, { partnerId, type, payload, dedupeKey: null }));
  await world.messaging.publisher.publish("event.recorded", { eventId: eventId! });
  return eventId!;
}

export function deliveryOf(db: Db, eventId: string) {
  return db.webhookDelivery.findUnique({ where: { eventId } });
}

/** Waits for the delivery to match `done`. */
export function deliveryWhen(db: Db, eventId: string, what: string, done: (d: NonNullable<Awaited<ReturnType<typeof deliveryOf>>>) => boolean, timeoutMs = 20_000) {
  return eventually(what, async () => {
    const delivery = await deliveryOf(db, eventId);
    return delivery && done(delivery) ? delivery : undefined;
  }, timeoutMs, 50);
}

export const randomAddress = () => getAddress(hexlify(randomBytes(20)));
