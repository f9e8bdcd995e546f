import { Webhook, WebhookDelivery } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, createTestPartner, startTestGateway, type TestGateway } from "./support";

describe("the webhook", () => {
  let gateway: TestGateway;
  let wakes = 0;
  beforeAll(async () => {
    gateway = await startTestGateway({ onOutbox: () => wakes++ });
  });
  afterAll(() => gateway.close());

  const url = "https://hooks.example.com/sweep";
  const put = (who: TestPartner, body: unknown) => request(gateway.app).put("/v1/webhook").set(who.auth).send(body as object);
  const read = (who: TestPartner) => request(gateway.app).get("/v1/webhook").set(who.auth);
  const remove = (who: TestPartner) => request(gateway.app).delete("/v1/webhook").set(who.auth);
  const sendTest = (who: TestPartner) => request(gateway.app).post("/v1/webhook/test").set(who.auth);
  const deliveries = (who: TestPartner, query: Record<string, string | number> = {}) => request(gateway.app).get("/v1/webhook/deliveries").query(query).set(who.auth);

  /** An event of the partner with its delivery row, as the dispatcher writes them. */
  async function delivery(who: TestPartner, fields: { status?: "pending" | "delivered" | "failed"; type?: string } = {}) {
    const event = await gateway.db.event.create({ data: { partnerId: who.partnerId, type: fields.type ?? "sweep.swept" } });
    const status = fields.status ?? "pending";
    return gateway.db.webhookDelivery.create({
      data: {
        eventId: event.id,
        partnerId: who.partnerId,
        status,
        attempts: status === "pending" ? 1 : 2,
        lastStatusCode: status === "delivered" ? 200 : 500,
        lastError: status === "delivered" ? null : "status 500",
        nextAttemptAt: status === "pending" ? new Date(Date.now() + 10_000) : null,
        deliveredAt: status === "delivered" ? new Date() : null,
      },
    });
  }

  describe("PUT /v1/webhook", () => {
    it("sets the webhook and answers it with a whsec_ secret of 32 random bytes and no alerts; GET agrees", async () => {
      const partner = await createTestPartner(gateway.db);
      const res = await put(partner, { url });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/), low_balance: [] });
      expect(Buffer.from(res.body.secret.slice("whsec_".length), "base64url")).toHaveLength(32);
      expect(Webhook.parse(res.body)).toEqual(res.body);
      const got = await read(partner);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
    });

    it("gives every webhook a secret of its own", async () => {
      const [a, b] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
      expect((await put(a, { url })).body.secret).not.toBe((await put(b, { url })).body.secret);
    });

    it("keeps the secret when the URL changes", async () => {
      const partner = await createTestPartner(gateway.db);
      const first = await put(partner, { url });
      const second = await put(partner, { url: "https://other.example.org/in" });
      expect(second.body).toEqual({ ...first.body, url: "https://other.example.org/in" });
    });

    it("creates one webhook with one secret when first PUTs race", async () => {
      const partner = await createTestPartner(gateway.db);
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => put(partner, { url: `${url}/${i}`, low_balance: [{ chain_id: SEPOLIA, threshold: `${i + 1}` }] })));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((res) => res.body.secret)).size).toBe(1);
      expect(await gateway.db.lowBalanceAlert.count({ where: { partnerId: partner.partnerId } })).toBe(1);
    });

    it("stores the URL exactly as sent", async () => {
      const partner = await createTestPartner(gateway.db);
      const sent = "https://Hooks.Example.com:8443/in?x=1";
      expect((await put(partner, { url: sent })).body.url).toBe(sent);
    });

    it("sets the alerts sent, at most one per chain, listed by chain", async () => {
      const partner = await createTestPartner(gateway.db);
      const big = ((1n << 256n) - 1n).toString();
      const res = await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold: big }, { chain_id: BSC_TESTNET, threshold: "1000" }] });
      expect(res.status).toBe(200);
      expect(res.body.low_balance).toEqual([
        { chain_id: BSC_TESTNET, threshold: "1000", low: false },
        { chain_id: SEPOLIA, threshold: big, low: false },
      ]);
      expect((await read(partner)).body).toEqual(res.body);
    });

    it("replaces all alerts: chains not sent lose theirs, and a request without low_balance removes them all", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold: "5" }, { chain_id: BSC_TESTNET, threshold: "6" }] });
      const replaced = await put(partner, { url, low_balance: [{ chain_id: BSC_TESTNET, threshold: "7" }] });
      expect(replaced.body.low_balance).toEqual([{ chain_id: BSC_TESTNET, threshold: "7", low: false }]);
      const emptied = await put(partner, { url, low_balance: [] });
      expect(emptied.body.low_balance).toEqual([]);
      await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold: "5" }] });
      const removed = await put(partner, { url });
      expect(removed.body.low_balance).toEqual([]);
      expect(await gateway.db.lowBalanceAlert.count({ where: { partnerId: partner.partnerId } })).toBe(0);
    });

    it("keeps an alert's low when the same threshold is sent again, and re-arms it when the threshold changes", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold: "100" }, { chain_id: BSC_TESTNET, threshold: "100" }] });
      await gateway.db.lowBalanceAlert.updateMany({ where: { partnerId: partner.partnerId }, data: { low: true } });
      const res = await put(partner, { url: "https://other.example.org/in", low_balance: [{ chain_id: SEPOLIA, threshold: "0100" }, { chain_id: BSC_TESTNET, threshold: "200" }] });
      expect(res.body.low_balance).toEqual([
        { chain_id: BSC_TESTNET, threshold: "200", low: false },
        { chain_id: SEPOLIA, threshold: "100", low: true },
      ]);
    });

    it.each<[string, unknown, RegExp]>([
      ["an unknown field", { url, events: ["sweep.swept"] }, /^unknown field events$/],
      ["an unknown field in an alert", { url, low_balance: [{ chain_id: SEPOLIA, threshold: "1", low: true }] }, /^unknown field low_balance\.0\.low$/],
      ["no url", { low_balance: [] }, /^url is required$/],
      ["url as a number", { url: 5 }, /^url must be a string$/],
      ["low_balance as an object", { url, low_balance: { chain_id: SEPOLIA, threshold: "1" } }, /^low_balance must be an array$/],
      ["low_balance null", { url, low_balance: null }, /^low_balance must be an array$/],
      ["a threshold as a number", { url, low_balance: [{ chain_id: SEPOLIA, threshold: 1 }] }, /^low_balance\.0\.threshold must be a string$/],
      ["an alert without a threshold", { url, low_balance: [{ chain_id: SEPOLIA }] }, /^low_balance\.0\.threshold is required$/],
      ["an array", [{ url }], /^request body must be a JSON object$/],
    ])("refuses %s with 400 invalid_json", async (_what, body, message) => {
      const partner = await createTestPartner(gateway.db);
      const res = await put(partner, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: "invalid_json", message: expect.stringMatching(message) } });
    });

    it.each<[string, string, RegExp]>([
      ["http", "http://hooks.example.com/", /^url must use https$/],
      ["a relative URL", "/hook", /^url must be an absolute https URL$/],
      ["credentials", "https://me:pw@hooks.example.com/", /^url must not carry credentials$/],
      ["localhost", "https://localhost:8443/", /^url host localhost is this machine/],
      ["a loopback address", "https://127.0.0.1/", /^url host 127\.0\.0\.1 is not a public address/],
      ["an RFC 1918 address", "https://10.0.0.8/", /is not a public address/],
      ["the cloud metadata address", "https://169.254.169.254/", /is not a public address/],
      ["a CGNAT address", "https://100.64.0.1/", /is not a public address/],
      ["IPv6 loopback", "https://[::1]/", /is not a public address/],
      ["IPv6 unique-local", "https://[fd00::1]/", /is not a public address/],
      ["IPv6 link-local", "https://[fe80::1]/", /is not a public address/],
      ["an IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/", /is not a public address/],
      ["a URL over 2048 characters", `https://hooks.example.com/${"a".repeat(2048 - 25)}`, /^url must be at most 2048 characters$/],
    ])("refuses %s with 422 invalid_url", async (_what, badUrl, message) => {
      const partner = await createTestPartner(gateway.db);
      const res = await put(partner, { url: badUrl });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: { code: "invalid_url", message: expect.stringMatching(message) } });
      expect((await read(partner)).status).toBe(404);
    });

    it("accepts a URL of exactly 2048 characters", async () => {
      const partner = await createTestPartner(gateway.db);
      const long = `https://hooks.example.com/${"a".repeat(2048 - 26)}`;
      expect(long).toHaveLength(2048);
      expect((await put(partner, { url: long })).status).toBe(200);
    });

    it.each<[string, unknown[], RegExp]>([
      ["a chain of mainnet", [{ chain_id: 1, threshold: "1" }], /^low_balance\.0\.chain_id must be a chain of this API: one of 11155111, 97$/],
      ["chain 0", [{ chain_id: 0, threshold: "1" }], /^low_balance\.0\.chain_id must be an integer chain id of at least 1$/],
      [
        "a chain listed twice",
        [
          { chain_id: SEPOLIA, threshold: "1" },
          { chain_id: SEPOLIA, threshold: "2" },
        ],
        /^low_balance\.1\.chain_id is listed twice; at most one alert per chain$/,
      ],
    ])("refuses %s with 422 unknown_chain", async (_what, lowBalance, message) => {
      const partner = await createTestPartner(gateway.db);
      const res = await put(partner, { url, low_balance: lowBalance });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: { code: "unknown_chain", message: expect.stringMatching(message) } });
    });

    it.each<[string, string, RegExp]>([
      ["zero", "0", /^low_balance\.0\.threshold must be above zero$/],
      ["a negative threshold", "-5", /must be a string of decimal digits/],
      ["a fraction", "1.5", /must be a string of decimal digits/],
      ["an exponent", "1e18", /must be a string of decimal digits/],
      ["2^256", (1n << 256n).toString(), /must be at most 2\^256-1$/],
    ])("refuses a threshold of %s with 422 invalid_amount", async (_what, threshold, message) => {
      const partner = await createTestPartner(gateway.db);
      const res = await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold }] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: { code: "invalid_amount", message: expect.stringMatching(message) } });
    });

    it("leaves the webhook and its alerts as they were when a request is refused", async () => {
      const partner = await createTestPartner(gateway.db);
      const set = await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold: "5" }] });
      expect((await put(partner, { url: "http://plain.example.com/", low_balance: [] })).status).toBe(422);
      expect((await read(partner)).body).toEqual(set.body);
    });
  });

  describe("GET /v1/webhook", () => {
    it("answers 404 not_found when no webhook is set", async () => {
      const res = await read(await createTestPartner(gateway.db));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "no webhook is set" } });
    });
  });

  describe("POST /v1/webhook/rotate-secret", () => {
    const rotate = (who: TestPartner) => request(gateway.app).post("/v1/webhook/rotate-secret").set(who.auth);

    it("gives a new secret and keeps the old one signing for 24 hours, two secrets at most", async () => {
      const partner = await createTestPartner(gateway.db);
      const set = await put(partner, { url, low_balance: [] });
      const first = await rotate(partner);
      expect(first.status).toBe(200);
      expect(Webhook.parse(first.body)).toEqual(first.body);
      expect(first.body).toMatchObject({ url, low_balance: [], secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) });
      expect(first.body.secret).not.toBe(set.body.secret);
      const until = new Date(first.body.previous_secret_until).getTime();
      expect(Math.abs(until - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);
      expect(await gateway.db.webhook.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).toMatchObject({ secret: first.body.secret, previousSecret: set.body.secret });
      expect((await read(partner)).body).toEqual(first.body);

      const second = await rotate(partner);
      expect(await gateway.db.webhook.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).toMatchObject({ secret: second.body.secret, previousSecret: first.body.secret });
      // A URL changed afterwards keeps both.
      expect((await put(partner, { url: "https://hooks.example.com/other", low_balance: [] })).body).toMatchObject({ secret: second.body.secret, previous_secret_until: expect.any(String) });
    });

    it("answers 404 not_found when no webhook is set", async () => {
      const res = await rotate(await createTestPartner(gateway.db));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "no webhook is set" } });
    });
  });

  describe("DELETE /v1/webhook", () => {
    it("removes the webhook and its alerts with 204; GET then answers 404", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url, low_balance: [{ chain_id: SEPOLIA, threshold: "5" }] });
      const res = await remove(partner);
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expect((await read(partner)).status).toBe(404);
      expect(await gateway.db.lowBalanceAlert.count({ where: { partnerId: partner.partnerId } })).toBe(0);
    });

    it("answers 404 not_found when no webhook is set, also a second time", async () => {
      const partner = await createTestPartner(gateway.db);
      const never = await remove(partner);
      expect(never.status).toBe(404);
      expect(never.body).toEqual({ error: { code: "not_found", message: "no webhook is set" } });
      await put(partner, { url });
      expect((await remove(partner)).status).toBe(204);
      expect((await remove(partner)).status).toBe(404);
    });

    it("drops undelivered events: pending deliveries become failed with webhook removed, the others stay", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url });
      const pending = await delivery(partner);
      const delivered = await delivery(partner, { status: "delivered" });
      const failed = await delivery(partner, { status: "failed" });
      expect((await remove(partner)).status).toBe(204);

      const byId = async (eventId: string) => gateway.db.webhookDelivery.findUniqueOrThrow({ where: { eventId } });
      expect(await byId(pending.eventId)).toMatchObject({ status: "failed", lastError: "webhook removed", nextAttemptAt: null, attempts: 1, lastStatusCode: 500 });
      expect(await byId(delivered.eventId)).toEqual(delivered);
      expect(await byId(failed.eventId)).toEqual(failed);
      const log = await deliveries(partner);
      expect(log.body.items.map((d: WebhookDelivery) => [d.id, d.status, d.last_error])).toEqual([
        [failed.eventId, "failed", "status 500"],
        [delivered.eventId, "delivered", null],
        [pending.eventId, "failed", "webhook removed"],
      ]);
    });

    it("gives a webhook set again a new secret", async () => {
      const partner = await createTestPartner(gateway.db);
      const first = await put(partner, { url });
      await remove(partner);
      const again = await put(partner, { url });
      expect(again.body.secret).toMatch(/^whsec_/);
      expect(again.body.secret).not.toBe(first.body.secret);
    });
  });

  describe("GET /v1/webhook/deliveries", () => {
    it("answers an empty page without deliveries, with or without a webhook", async () => {
      const partner = await createTestPartner(gateway.db);
      expect((await deliveries(partner)).body).toEqual({ items: [], next_cursor: null });
    });

    it("shows a delivery with every field, the nullable ones as null, created_at the event's time", async () => {
      const partner = await createTestPartner(gateway.db);
      const row = await delivery(partner, { status: "delivered", type: "hot_wallet.active" });
      const event = await gateway.db.event.findUniqueOrThrow({ where: { id: row.eventId } });
      const res = await deliveries(partner);
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        {
          id: row.eventId,
          event: "hot_wallet.active",
          status: "delivered",
          attempts: 2,
          last_status_code: 200,
          last_error: null,
          created_at: event.createdAt.toISOString(),
          delivered_at: row.deliveredAt!.toISOString(),
          next_attempt_at: null,
        },
      ]);
      expect(WebhookDelivery.parse(res.body.items[0])).toEqual(res.body.items[0]);
    });

    it("pages newest first by seq; rows added between pages neither shift nor repeat", async () => {
      const partner = await createTestPartner(gateway.db);
      const rows = [];
      for (let i = 0; i < 5; i++) rows.push(await delivery(partner));
      const newestFirst = rows.map((r) => r.eventId).reverse();

      const first = await deliveries(partner, { limit: 2 });
      expect(first.body.items.map((d: WebhookDelivery) => d.id)).toEqual(newestFirst.slice(0, 2));
      expect(first.body.next_cursor).toEqual(expect.any(String));
      await delivery(partner);
      const second = await deliveries(partner, { limit: 2, cursor: first.body.next_cursor });
      expect(second.body.items.map((d: WebhookDelivery) => d.id)).toEqual(newestFirst.slice(2, 4));
      const third = await deliveries(partner, { limit: 2, cursor: second.body.next_cursor });
      expect(third.body).toEqual({ items: [expect.objectContaining({ id: newestFirst[4] })], next_cursor: null });
    });

    it("pages 50 by default", async () => {
      const partner = await createTestPartner(gateway.db);
      for (let i = 0; i < 51; i++) await delivery(partner);
      const res = await deliveries(partner);
      expect(res.body.items).toHaveLength(50);
      expect(res.body.next_cursor).toEqual(expect.any(String));
    });

    it.each<[string, Record<string, string>, RegExp]>([
      ["limit 0", { limit: "0" }, /^limit must be an integer from 1 to 200$/],
      ["limit 201", { limit: "201" }, /^limit must be an integer from 1 to 200$/],
      ["a malformed cursor", { cursor: "nope" }, /^cursor is not a next_cursor of this list$/],
      ["a cursor of the sweeps list", { cursor: Buffer.from("s1.5").toString("base64url") }, /^cursor is not a next_cursor of this list$/],
      ["an unknown parameter", { status: "pending" }, /^unknown query parameter status$/],
    ])("refuses %s with 400 invalid_query", async (_what, query, message) => {
      const res = await deliveries(await createTestPartner(gateway.db), query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: "invalid_query", message: expect.stringMatching(message) } });
    });
  });

  describe("POST /v1/webhook/test", () => {
    it("records a webhook.test event with its outbox message, answers 202 with its id, and wakes the relay", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url });
      const before = wakes;
      const res = await sendTest(partner);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(wakes).toBe(before + 1);

      const event = await gateway.db.event.findUniqueOrThrow({ where: { id: res.body.id } });
      expect(event).toMatchObject({ partnerId: partner.partnerId, type: "webhook.test", subjectId: null, dedupeKey: null, payload: { message: "a test event from the sweep service" } });
      const messages = await gateway.db.outboxMessage.findMany({ where: { type: "event.recorded", payload: { path: ["eventId"], equals: res.body.id } } });
      expect(messages).toHaveLength(1);
      expect(messages[0]!.routingKey).toBe(gateway.names.events());
    });

    it("lists the event's delivery as pending as soon as it is answered, before any dispatcher has seen it", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url });
      const res = await sendTest(partner);
      expect(res.status).toBe(202);

      const log = await deliveries(partner);
      expect(log.body.items).toEqual([expect.objectContaining({ id: res.body.id, event: "webhook.test", status: "pending", attempts: 0, last_status_code: null, last_error: null, delivered_at: null })]);
      const event = await gateway.db.event.findUniqueOrThrow({ where: { id: res.body.id } });
      expect(log.body.items[0].created_at).toBe(event.createdAt.toISOString());
      expect(Date.parse(log.body.items[0].next_attempt_at)).toBeLessThanOrEqual(Date.now());
    });

    it("takes 10 a minute from a partner, then answers 429 rate_limited with Retry-After and records nothing; another partner is not held back", async () => {
      const [partner, other] = [await createTestPartner(gateway.db), await createTestPartner(gateway.db)];
      await put(partner, { url });
      await put(other, { url });
      for (let i = 0; i < 10; i++) expect((await sendTest(partner)).status).toBe(202);
      const refused = await sendTest(partner);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: "rate_limited", message: expect.stringContaining("POST /v1/webhook/test") } });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect(await gateway.db.event.count({ where: { partnerId: partner.partnerId, type: "webhook.test" } })).toBe(10);
      expect((await sendTest(other)).status).toBe(202);
    });

    it("records a new event for every request", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url });
      const [a, b] = [await sendTest(partner), await sendTest(partner)];
      expect(a.body.id).not.toBe(b.body.id);
      expect(await gateway.db.event.count({ where: { partnerId: partner.partnerId, type: "webhook.test" } })).toBe(2);
    });

    it("answers 404 not_found and records nothing when no webhook is set", async () => {
      const partner = await createTestPartner(gateway.db);
      const before = wakes;
      const res = await sendTest(partner);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "no webhook is set" } });
      expect(await gateway.db.event.count({ where: { partnerId: partner.partnerId } })).toBe(0);
      expect(wakes).toBe(before);
    });
  });

  describe("POST /v1/webhook/deliveries/{id}/resend", () => {
    const resend = (who: TestPartner, id: string) => request(gateway.app).post(`/v1/webhook/deliveries/${id}/resend`).set(who.auth);

    it.each(["delivered", "failed"] as const)("starts a %s delivery over: pending now, attempts from 0, outcome cleared, at the top of the log, a dispatcher woken", async (status) => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url });
      const resent = await delivery(partner, { status });
      const newer = await delivery(partner, { status: "delivered" });
      const before = wakes;

      const res = await resend(partner, resent.eventId);
      expect(res.status).toBe(202);
      expect(WebhookDelivery.parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        id: resent.eventId,
        event: "sweep.swept",
        status: "pending",
        attempts: 0,
        last_status_code: null,
        last_error: null,
        created_at: (await gateway.db.event.findUniqueOrThrow({ where: { id: resent.eventId } })).createdAt.toISOString(),
        delivered_at: null,
        next_attempt_at: expect.any(String),
      });
      expect(Date.parse(res.body.next_attempt_at)).toBeLessThanOrEqual(Date.now());
      expect((await deliveries(partner)).body.items.map((d: WebhookDelivery) => d.id)).toEqual([resent.eventId, newer.eventId]);
      expect(wakes).toBe(before + 1);
      const wake = await gateway.db.outboxMessage.findFirst({ where: { type: "event.recorded", payload: { equals: { eventId: resent.eventId } } } });
      expect(wake).not.toBeNull();
    });

    it("answers a pending delivery as it is, changing nothing", async () => {
      const partner = await createTestPartner(gateway.db);
      await put(partner, { url });
      const pending = await delivery(partner, { status: "pending" });
      const res = await resend(partner, pending.eventId);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id: pending.eventId, status: "pending", attempts: 1, last_error: "status 500", next_attempt_at: pending.nextAttemptAt!.toISOString() });
      expect((await gateway.db.webhookDelivery.findUniqueOrThrow({ where: { eventId: pending.eventId } })).seq).toBe(pending.seq);
    });

    it("answers another partner's delivery, an unknown id and a malformed one with 404 not_found, resending nothing", async () => {
      const [mine, theirs] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
      await Promise.all([put(mine, { url }), put(theirs, { url })]);
      const theirDelivery = await delivery(theirs, { status: "failed" });
      for (const id of [theirDelivery.eventId, "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1", "not-a-uuid"]) {
        const res = await resend(mine, id);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: { code: "not_found", message: "no such delivery in the account" } });
      }
      expect((await gateway.db.webhookDelivery.findUniqueOrThrow({ where: { eventId: theirDelivery.eventId } })).status).toBe("failed");
    });

    it("answers 404 not_found when no webhook is set", async () => {
      const partner = await createTestPartner(gateway.db);
      const failed = await delivery(partner, { status: "failed" });
      const res = await resend(partner, failed.eventId);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "no webhook is set" } });
    });
  });

  describe("partner isolation", () => {
    it("keeps each account's webhook, alerts and delivery log to itself", async () => {
      const [mine, theirs] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
      await put(mine, { url, low_balance: [{ chain_id: SEPOLIA, threshold: "5" }] });
      const theirWebhook = await put(theirs, { url: "https://theirs.example.org/", low_balance: [{ chain_id: BSC_TESTNET, threshold: "9" }] });
      const mineDelivery = await delivery(mine);
      const theirPending = await delivery(theirs);

      expect((await deliveries(theirs)).body.items.map((d: WebhookDelivery) => d.id)).toEqual([theirPending.eventId]);
      expect((await deliveries(mine)).body.items.map((d: WebhookDelivery) => d.id)).toEqual([mineDelivery.eventId]);

      expect((await remove(mine)).status).toBe(204);
      expect((await read(theirs)).body).toEqual(theirWebhook.body);
      expect(await gateway.db.webhookDelivery.findUniqueOrThrow({ where: { eventId: theirPending.eventId } })).toMatchObject({ status: "pending", lastError: "status 500" });
      expect((await sendTest(mine)).status).toBe(404);
      expect((await sendTest(theirs)).status).toBe(202);
    });
  });
});

// Local development's two switches, each on its own: private hosts do not bring plain http with them.
describe("PUT /v1/webhook under WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP", () => {
  it.each<[string, { allowPrivate: boolean; allowHttp: boolean }, string, number]>([
    ["private hosts only: an https receiver on this machine", { allowPrivate: true, allowHttp: false }, "https://127.0.0.1:8443/hook", 200],
    ["private hosts only: plain http refused, as the spec says", { allowPrivate: true, allowHttp: false }, "http://127.0.0.1:3000/hook", 422],
    ["plain http only: a public http host", { allowPrivate: false, allowHttp: true }, "http://hooks.example.com/in", 200],
    ["plain http only: this machine refused", { allowPrivate: false, allowHttp: true }, "http://127.0.0.1:3000/hook", 422],
    ["both, as pnpm start sets them", { allowPrivate: true, allowHttp: true }, "http://127.0.0.1:3000/hook", 200],
  ])("%s", async (_case, webhookReach, url, status) => {
    const local = await startTestGateway({ webhookReach });
    try {
      const partner = await createTestPartner(local.db);
      const res = await request(local.app).put("/v1/webhook").set(partner.auth).send({ url, low_balance: [] });
      expect(res.status).toBe(status);
      if (status === 422) expect(res.body.error.code).toBe("invalid_url");
    } finally {
      await local.close();
    }
  });
});
