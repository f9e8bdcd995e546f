/**
 * The pending deliveries' gauges through the real database and the real wiring: what
 * sweep_webhook_deliveries_* show at a scrape for deliveries retrying, overdue, delivered and given up,
 * and the earliest pending one's due time, where the delivery loop's rest ends.
 */
import { createDb, type Db } from "@sweep/db";
import { reportWebhookBacklog, scrapeMetrics } from "@sweep/metrics";
import { createTestDatabase, createTestPartner, parsePrometheusText } from "@sweep/testkit";
import { deliveryBacklog, nextPendingAt } from "../src/delivery-store";

describe("the pending webhook deliveries at a scrape", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let stop: () => void;
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1_000);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    stop = reportWebhookBacklog(() => deliveryBacklog(db));
  });

  afterAll(async () => {
    stop?.();
    await db?.$disconnect();
    await database?.drop();
  });

  /** The three gauges, ages in whole minutes (a scrape runs well within a minute of the rows' times). */
  async function scraped() {
    const samples = parsePrometheusText((await scrapeMetrics()).body);
    const value = (name: string) => samples.find((s) => s.name === name)?.value;
    return {
      pending: value("sweep_webhook_deliveries_pending"),
      oldestAgeMinutes: Math.floor(value("sweep_webhook_deliveries_oldest_age_seconds")! / 60),
      overdueMinutes: Math.floor(value("sweep_webhook_deliveries_overdue_seconds")! / 60),
    };
  }

  async function delivery(partnerId: string, fields: { status: "pending" | "delivered" | "failed"; eventSecondsAgo: number; dueSecondsAgo: number | null }) {
    const event = await db.event.create({ data: { partnerId, type: "webhook.test", payload: { message: "backlog" }, createdAt: ago(fields.eventSecondsAgo) } });
    await db.webhookDelivery.create({
      data: {
        eventId: event.id,
        partnerId,
        status: fields.status,
        attempts: 1,
        createdAt: event.createdAt,
        nextAttemptAt: fields.dueSecondsAgo === null ? null : ago(fields.dueSecondsAgo),
      },
    });
  }

  it("shows none pending as zeros", async () => {
    expect(await scraped()).toEqual({ pending: 0, oldestAgeMinutes: 0, overdueMinutes: 0 });
    // And the delivery loop's rest has no due time to end at.
    expect(await nextPendingAt(db)).toBeNull();
  });

  it("counts the pending deliveries, the oldest's age, and how long the most overdue has waited for a dispatcher", async () => {
    const { partnerId } = await createTestPartner(db, "backlog");
    // Retrying: its next attempt is in 5 minutes; its event is 30 minutes old.
    await delivery(partnerId, { status: "pending", eventSecondsAgo: 30 * 60, dueSecondsAgo: -5 * 60 });
    // Due 3 minutes ago and not taken.
    await delivery(partnerId, { status: "pending", eventSecondsAgo: 10 * 60, dueSecondsAgo: 3 * 60 });
    // Done either way: not pending, however old.
    await delivery(partnerId, { status: "delivered", eventSecondsAgo: 600 * 60, dueSecondsAgo: null });
    await delivery(partnerId, { status: "failed", eventSecondsAgo: 600 * 60, dueSecondsAgo: null });

    expect(await scraped()).toEqual({ pending: 2, oldestAgeMinutes: 30, overdueMinutes: 3 });
    // The delivery loop's rest ends at the earliest pending one's time, here already past: it rests no longer than its interval.
    const next = await nextPendingAt(db);
    expect(Math.round((Date.now() - next!.getTime()) / 60_000)).toBe(3);
  });
});
