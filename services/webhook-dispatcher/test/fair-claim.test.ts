/**
 * claimDueDeliveries against the real database: how the free slots are shared between partners,
 * whatever their backlogs and the attempts they already have under way.
 */
import { createDb, type Db } from "@sweep/db";
import { createTestDatabase, createTestPartner } from "@sweep/testkit";
import { claimDueDeliveries } from "../src/delivery-store";

describe("claiming due deliveries fairly between partners", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  /** `count` deliveries of the partner, due the given seconds ago (older first by seq too). */
  async function backlog(partnerId: string, count: number, dueSecondsAgo: number) {
    const now = Date.now();
    for (let i = 0; i < count; i++) {
      const event = await db.event.create({ data: { partnerId, type: "webhook.test", payload: { message: `backlog ${i}` } } });
      await db.webhookDelivery.create({ data: { eventId: event.id, partnerId, nextAttemptAt: new Date(now - dueSecondsAgo * 1_000 + i), createdAt: event.createdAt } });
    }
  }

  // Partners a, b, c: their due deliveries (a's the oldest), attempts under way, and what one claim takes from each.
  it.each([
    { name: "one partner's backlog takes its share, not the whole room", due: [30, 0, 0], inFlight: [0, 0, 0], limit: 20, perPartner: 5, claimed: [5, 0, 0] },
    { name: "a partner at its share takes nothing; the others take theirs", due: [30, 2, 9], inFlight: [5, 0, 0], limit: 20, perPartner: 5, claimed: [0, 2, 5] },
    { name: "a partner's attempts under way count against its share", due: [30, 9, 0], inFlight: [3, 1, 0], limit: 20, perPartner: 5, claimed: [2, 4, 0] },
    { name: "scarce room goes round-robin, the oldest backlog not first", due: [30, 3, 3], inFlight: [0, 0, 0], limit: 3, perPartner: 5, claimed: [1, 1, 1] },
    { name: "a busy partner's next slot comes after another's first", due: [30, 3, 0], inFlight: [2, 0, 0], limit: 2, perPartner: 5, claimed: [0, 2, 0] },
  ])("$name", async ({ due, inFlight, limit, perPartner, claimed }) => {
    await db.webhookDelivery.deleteMany();
    const partners = await Promise.all(["a", "b", "c"].map(async (name) => (await createTestPartner(db, `fair claim ${name}`)).partnerId));
    for (const [i, partnerId] of partners.entries()) await backlog(partnerId, due[i]!, 60 - i * 10);

    const now = new Date();
    const lease = new Date(now.getTime() + 15_000);
    const busy = new Map(partners.flatMap((partnerId, i) => (inFlight[i]! > 0 ? [[partnerId, inFlight[i]!] as const] : [])));
    const taken = await claimDueDeliveries(db, now, lease, { limit, perPartner, inFlight: busy });

    expect(partners.map((partnerId) => taken.filter((d) => d.partnerId === partnerId).length)).toEqual(claimed);
    expect(taken.every((d) => d.lease.getTime() === lease.getTime())).toBe(true);
    // Taken under the lease: a second claim at once finds only what the first left.
    const again = await claimDueDeliveries(db, now, lease, { limit: 1_000, perPartner: 1_000, inFlight: new Map() });
    expect(again.filter((d) => taken.some((t) => t.eventId === d.eventId))).toEqual([]);
  });
});
