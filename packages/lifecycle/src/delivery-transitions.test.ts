import { randomUUID } from "node:crypto";
import { createDb, type Db, type DeliveryStatus } from "@sweep/db";
import { queueNames } from "@sweep/messaging";
import { dropPendingDeliveries, openDelivery, recordDeliveryAttempt, reopenDelivery, type DeliveryAttempt } from "./delivery-transitions";

/** A webhook delivery's changes after its event, on the real database. */
describe("the changes of a webhook delivery's state", () => {
  // A prefix of its own, so no relay of another test publishes these outbox rows.
  const names = queueNames(`delivery-transitions-${randomUUID().slice(0, 8)}`);
  // Ahead of now, so no dispatcher on this database takes the pending ones these tests leave.
  const lease = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
  const at = new Date(lease.getTime() - 30_000);
  const later = new Date(lease.getTime() + 60_000);
  let db: Db;
  let partnerId: string;

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    ({ id: partnerId } = await db.partner.create({ data: { name: "delivery transitions partner", environment: "testnet" } }));
  });
  afterAll(() => db.$disconnect());

  const delivery = async (status: DeliveryStatus, attempts = 2, nextAttemptAt: Date | null = lease) => {
    const event = await db.event.create({ data: { partnerId, type: "webhook.test", payload: { message: "x" } } });
    await db.webhookDelivery.create({ data: { eventId: event.id, partnerId, status, attempts, nextAttemptAt, lastError: status === "failed" ? "timeout" : null } });
    return event.id;
  };
  const row = async (eventId: string) => {
    const d = await db.webhookDelivery.findUniqueOrThrow({ where: { eventId } });
    return [d.status, d.attempts, d.lastStatusCode, d.lastError, d.nextAttemptAt?.toISOString() ?? null, d.deliveredAt?.toISOString() ?? null];
  };

  it.each<[string, number, DeliveryStatus | null]>([
    ["an event recorded while the webhook was set", +1_000, "pending"],
    ["an event recorded before the webhook was set (a replayed old message)", -1_000, null],
  ])("opens the delivery of %s only if the webhook was there: %s", async (_name, eventAfterWebhookMs, expected) => {
    const { id: own } = await db.partner.create({ data: { name: "delivery opening partner", environment: "testnet" } });
    const webhookAt = new Date(Date.now() - 60_000);
    await db.webhook.create({ data: { partnerId: own, url: "https://hooks.example.com/sweep", secret: "whsec_x", createdAt: webhookAt } });
    const event = await db.event.create({ data: { partnerId: own, type: "webhook.test", payload: { message: "x" }, createdAt: new Date(webhookAt.getTime() + eventAfterWebhookMs) } });
    expect(await openDelivery(db, event.id, lease)).toBe(expected);
    // A redelivered message changes nothing.
    expect(await openDelivery(db, event.id, lease)).toBe(expected);
    expect(await db.webhookDelivery.count({ where: { eventId: event.id } })).toBe(expected === null ? 0 : 1);
  });

  it.each<[string, DeliveryAttempt, unknown[]]>([
    ["delivered: the attempt counted, its status code kept", { outcome: "delivered", statusCode: 204, at }, ["delivered", 3, 204, null, null, at.toISOString()]],
    ["failed with attempts left: pending again at its time", { outcome: "failed", statusCode: 500, error: "http_500", next: { status: "pending", nextAttemptAt: later } }, ["pending", 3, 500, "http_500", later.toISOString(), null]],
    ["failed for good when attempts ran out", { outcome: "failed", statusCode: null, error: "timeout", next: { status: "failed", nextAttemptAt: null } }, ["failed", 3, null, "timeout", null, null]],
    ["webhook removed: failed, no attempt counted", { outcome: "webhook_removed" }, ["failed", 2, null, "webhook removed", null, null]],
  ])("records an attempt while the claim is held: %s", async (_name, attempt, expected) => {
    const eventId = await delivery("pending");
    expect(await recordDeliveryAttempt(db, { eventId, attempts: 2, lease }, attempt)).toBe(true);
    expect(await row(eventId)).toEqual(expected);
  });

  it.each<[string, DeliveryStatus, Date | null]>([
    ["the lease ran out and another claim wrote its own", "pending", later],
    ["it was delivered meanwhile", "delivered", lease],
    ["the webhook's deletion failed it meanwhile", "failed", lease],
  ])("records nothing once the claim is no longer held: %s", async (_name, status, nextAttemptAt) => {
    const eventId = await delivery(status, 2, nextAttemptAt);
    const before = await row(eventId);
    expect(await recordDeliveryAttempt(db, { eventId, attempts: 2, lease }, { outcome: "delivered", statusCode: 200, at })).toBe(false);
    expect(await row(eventId)).toEqual(before);
  });

  it("reopens a delivered or failed delivery with a new seq and a wake, and leaves a pending one to its dispatcher", async () => {
    const [delivered, failed, pending] = [await delivery("delivered"), await delivery("failed"), await delivery("pending")];
    const seqBefore = (await db.webhookDelivery.findUniqueOrThrow({ where: { eventId: delivered } })).seq;
    const reopen = (eventId: string) => db.$transaction((tx) => reopenDelivery(tx, names, { eventId, partnerId }));
    expect([await reopen(delivered), await reopen(failed), await reopen(pending)]).toEqual([true, true, false]);
    expect(await reopen(delivered)).toBe(false);

    for (const eventId of [delivered, failed]) expect((await row(eventId)).slice(0, 4)).toEqual(["pending", 0, null, null]);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { eventId: delivered } })).seq).toBeGreaterThan(seqBefore);
    expect(await row(pending)).toEqual(["pending", 2, null, null, lease.toISOString(), null]);
    const wakes = await db.outboxMessage.findMany({ where: { exchange: names.workExchange }, orderBy: { id: "asc" } });
    expect(wakes.map((m) => [m.type, m.payload])).toEqual([
      ["event.recorded", { eventId: delivered }],
      ["event.recorded", { eventId: failed }],
    ]);
  });

  it("refuses to reopen another partner's delivery", async () => {
    const eventId = await delivery("failed");
    expect(await db.$transaction((tx) => reopenDelivery(tx, names, { eventId, partnerId: randomUUID() }))).toBe(false);
    expect((await row(eventId))[0]).toBe("failed");
  });

  it("drops the partner's pending deliveries when its webhook is deleted, and only those", async () => {
    const { id: otherPartner } = await db.partner.create({ data: { name: "another partner", environment: "testnet" } });
    const [pending, delivered] = [await delivery("pending"), await delivery("delivered")];
    const otherEvent = await db.event.create({ data: { partnerId: otherPartner, type: "webhook.test" } });
    await db.webhookDelivery.create({ data: { eventId: otherEvent.id, partnerId: otherPartner, status: "pending", nextAttemptAt: lease } });

    expect(await db.$transaction((tx) => dropPendingDeliveries(tx, partnerId))).toBeGreaterThanOrEqual(1);
    expect(await row(pending)).toEqual(["failed", 2, null, "webhook removed", null, null]);
    expect((await row(delivered))[0]).toBe("delivered");
    expect((await row(otherEvent.id))[0]).toBe("pending");
  });
});
