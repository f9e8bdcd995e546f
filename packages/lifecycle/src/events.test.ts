import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { createDb, type Db } from "@sweep/db";
import { queueNames } from "@sweep/messaging";
import { recordEvent, recordEvents, type EventDraft, type EventType } from "./events";

/** A draft by shorthand: subjects and keys are names, made unique per test so runs never share them. */
interface Spec {
  type: EventType;
  subject?: "x" | "y";
  key?: string | null;
}

describe("recording events", () => {
  // A prefix of its own, so no relay of another test publishes these outbox rows.
  const names = queueNames(`events-test-${randomUUID().slice(0, 8)}`);
  let db: Db;
  let partnerId: string;

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    ({ id: partnerId } = await db.partner.create({ data: { name: "events test partner", environment: "testnet" } }));
  });
  afterAll(() => db.$disconnect());

  const record = (drafts: EventDraft[]) => db.$transaction((tx) => recordEvents(tx, names, drafts));
  const announced = (eventIds: string[]) =>
    db.outboxMessage.findMany({ where: { exchange: names.workExchange, OR: eventIds.map((eventId) => ({ payload: { path: ["eventId"], equals: eventId } })) }, orderBy: { id: "asc" } });

  it("records each draft with the message announcing it, in draft order, keyed by type and subject unless told", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const ids = await record([
      { partnerId, type: "sweep.swept", subjectId: a },
      { partnerId, type: "balance.low", payload: { balance: "12" } },
      { partnerId, type: "hot_wallet.failed", subjectId: b, dedupeKey: `hot_wallet.failed:${b}:1` },
    ]);

    expect(ids.every((id) => id !== null)).toBe(true);
    const events = await db.event.findMany({ where: { id: { in: ids as string[] } } });
    expect(ids.map((id) => events.find((e) => e.id === id)).map((e) => e && [e.partnerId, e.type, e.subjectId, e.payload, e.dedupeKey])).toEqual([
      [partnerId, "sweep.swept", a, null, `sweep.swept:${a}`],
      [partnerId, "balance.low", null, { balance: "12" }, null],
      [partnerId, "hot_wallet.failed", b, null, `hot_wallet.failed:${b}:1`],
    ]);
    expect((await announced(ids as string[])).map((m) => [m.routingKey, m.type, m.payload])).toEqual(ids.map((eventId) => [names.events(), "event.recorded", { eventId }]));
  });

  it.each<[string, Spec[], Spec[], boolean[]]>([
    ["records a key recorded by no one", [], [{ type: "sweep.swept", subject: "x" }], [true]],
    ["skips a key an earlier call recorded", [{ type: "sweep.swept", subject: "x" }], [{ type: "sweep.swept", subject: "x" }, { type: "sweep.failed", subject: "x" }], [false, true]],
    ["records a key repeated within the call once", [], [{ type: "sweep.swept", subject: "x" }, { type: "sweep.swept", subject: "x" }, { type: "sweep.swept", subject: "y" }], [true, false, true]],
    ["records a null key every time", [{ type: "webhook.test", key: null }], [{ type: "webhook.test", key: null }, { type: "webhook.test", key: null }], [true, true]],
    ["keys an event without a subject only when told", [{ type: "balance.low", key: "k" }], [{ type: "balance.low" }, { type: "balance.low", key: "k" }], [true, false]],
    ["keys by the given key instead of type and subject", [{ type: "sweep.swept", subject: "x" }], [{ type: "sweep.swept", subject: "x", key: "k" }], [true]],
  ])("%s", async (_name, earlier, specs, recorded) => {
    const unique = { x: randomUUID(), y: randomUUID(), key: randomUUID() };
    const draft = ({ type, subject, key }: Spec): EventDraft => ({
      partnerId,
      type,
      subjectId: subject && unique[subject],
      dedupeKey: key === undefined || key === null ? key : `${key}:${unique.key}`,
    });
    await record(earlier.map(draft));
    const eventsBefore = await db.event.count({ where: { partnerId } });

    const ids = await record(specs.map(draft));

    expect(ids.map((id) => id !== null)).toEqual(recorded);
    const created = ids.filter((id): id is string => id !== null);
    expect(await db.event.count({ where: { partnerId } })).toBe(eventsBefore + created.length);
    expect((await announced(created)).map((m) => (m.payload as { eventId: string }).eventId)).toEqual(created);
  });

  describe("opens each event's delivery in the same transaction", () => {
    let hooked: string;
    beforeAll(async () => {
      ({ id: hooked } = await db.partner.create({ data: { name: "events test partner with a webhook", environment: "testnet" } }));
      await db.webhook.create({ data: { partnerId: hooked, url: "https://hooks.example.com/in", secret: "whsec_test" } });
    });
    const deliveriesOf = (eventIds: string[]) => db.webhookDelivery.findMany({ where: { eventId: { in: eventIds } } });

    it("pending, due now, dated by its event, when the partner has a webhook", async () => {
      const before = Date.now();
      const [id] = await record([{ partnerId: hooked, type: "webhook.test", payload: { message: "hi" }, dedupeKey: null }]);
      const event = await db.event.findUniqueOrThrow({ where: { id: id! } });
      const [delivery, ...more] = await deliveriesOf([id!]);
      expect(more).toEqual([]);
      expect(delivery).toMatchObject({ partnerId: hooked, status: "pending", attempts: 0, lastStatusCode: null, lastError: null, deliveredAt: null, createdAt: event.createdAt });
      expect(delivery!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect(delivery!.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
    });

    it.each<[string, (subject: string) => EventDraft[][], boolean[]]>([
      ["none when the partner has no webhook", (subject) => [[{ partnerId, type: "sweep.swept", subjectId: subject }]], [false]],
      ["one per event of a mixed call, for the partner with a webhook", (subject) => [[{ partnerId, type: "sweep.swept", subjectId: subject }, { partnerId: hooked, type: "sweep.failed", subjectId: subject }]], [false, true]],
      ["none for a dedupe key's repeat: the first event keeps its one delivery", (subject) => [[{ partnerId: hooked, type: "sweep.failed", subjectId: subject }], [{ partnerId: hooked, type: "sweep.failed", subjectId: subject }]], [true]],
    ])("%s", async (_name, calls, opened) => {
      const subject = randomUUID();
      const ids: string[] = [];
      for (const drafts of calls(subject)) ids.push(...(await record(drafts)).filter((id): id is string => id !== null));

      const delivered = new Set((await deliveriesOf(ids)).map((d) => d.eventId));
      expect(ids.map((id) => delivered.has(id))).toEqual(opened);
      expect(await db.webhookDelivery.count({ where: { event: { subjectId: subject } } })).toBe(opened.filter(Boolean).length);
    });
  });

  it("takes four statements however many events there are", async () => {
    const counting = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }), log: [{ emit: "event", level: "query" }] });
    const statements: string[] = [];
    counting.$on("query", (e) => statements.push(e.query));
    try {
      const ids = await counting.$transaction((tx) => recordEvents(tx, names, Array.from({ length: 50 }, () => ({ partnerId, type: "sweep.swept", subjectId: randomUUID() }))));
      expect(ids.filter((id) => id !== null)).toHaveLength(50);
    } finally {
      await counting.$disconnect();
    }
    expect(statements.filter((sql) => !/^(BEGIN|COMMIT)/.test(sql))).toEqual([
      expect.stringMatching(/^SELECT .* FROM "public"\."events" WHERE/),
      expect.stringMatching(/^INSERT INTO "public"\."events"/),
      expect.stringMatching(/^\s*INSERT INTO webhook_deliveries .* JOIN webhooks/s),
      expect.stringMatching(/^INSERT INTO "public"\."outbox"/),
    ]);
  });

  it("records one event as recordEvents does", async () => {
    const draft: EventDraft = { partnerId, type: "revocation.revoked", subjectId: randomUUID() };
    const id = await db.$transaction((tx) => recordEvent(tx, names, draft));
    expect(id).toEqual(expect.any(String));
    expect(await announced([id!])).toHaveLength(1);
    expect(await db.$transaction((tx) => recordEvent(tx, names, draft))).toBeNull();
  });
});
