/**
 * A partner resends a delivered event from the console, and the real webhook dispatcher (its own
 * process, on a database of this test's own) delivers it again: the same event, signed anew.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { defineTopology, deleteTopology } from "@sweep/messaging";
import { createTestDatabase, eventually, startReceiver, startService, type Receiver, type ServiceProcess } from "@sweep/testkit";
import request from "supertest";
import { signedInConsole, type ConsoleBrowser } from "./console-support";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("resending a webhook delivery", () => {
  let database: { url: string; drop(): Promise<void> };
  let gateway: TestGateway;
  let receiver: Receiver;
  let dispatcher: ServiceProcess | undefined;
  let browser: ConsoleBrowser;
  const prefix = `resend-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startTestGateway({ databaseUrl: database.url, rateLimits: { keyPrefix: prefix } });
    receiver = await startReceiver();
    dispatcher = await startService("webhook-dispatcher", { DATABASE_URL: database.url, AMQP_PREFIX: prefix, WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true", DELIVERY_POLL_MS: "50" });
  });

  afterAll(async () => {
    await dispatcher?.kill();
    await receiver?.close();
    await gateway?.close();
    await deleteTopology(RABBITMQ_URL, defineTopology({ chainIds: environmentChainIds("testnet"), prefix }));
    await database?.drop();
  });

  /** The delivery as the console's log shows it. */
  const deliveryOf = (eventId: string) => request(gateway.app).get("/v1/webhook/deliveries").set("Cookie", browser.cookie).then((res) => res.body.items.find((d: { id: string }) => d.id === eventId));

  it("delivers the event again, signed anew, when the console resends it", async () => {
    const partner = await createTestPartner(gateway.db);
    const secret = `whsec_${randomBytes(32).toString("base64url")}`;
    await gateway.db.webhook.create({ data: { partnerId: partner.partnerId, url: receiver.url("/resend"), secret } });
    receiver.route("/resend", secret, (res) => res.writeHead(204).end());
    browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);

    const queued = await request(gateway.app).post("/v1/webhook/test").set({ Cookie: browser.cookie, "X-CSRF-Token": browser.csrf });
    expect(queued.status).toBe(202);
    const eventId: string = queued.body.id;
    await eventually("the first delivery", async () => ((await deliveryOf(eventId))?.status === "delivered" ? true : undefined), 20_000, 50);

    const resent = await request(gateway.app).post(`/v1/webhook/deliveries/${eventId}/resend`).set({ Cookie: browser.cookie, "X-CSRF-Token": browser.csrf });
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ id: eventId, status: "pending", attempts: 0, delivered_at: null });

    const delivered = await eventually("the second delivery", async () => {
      const delivery = await deliveryOf(eventId);
      return delivery?.status === "delivered" ? delivery : undefined;
    }, 20_000, 50);
    expect(delivered).toMatchObject({ id: eventId, attempts: 1, last_status_code: 204, last_error: null });

    const [first, second, ...more] = receiver.received("/resend");
    expect(more).toEqual([]);
    expect([first!.verified, second!.verified]).toEqual([true, true]);
    expect([first!.headers["service-delivery"], second!.headers["service-delivery"]]).toEqual([eventId, eventId]);
    expect(JSON.parse(second!.body)).toEqual(JSON.parse(first!.body));
    expect(JSON.parse(second!.body)).toMatchObject({ id: eventId, type: "webhook.test" });
  }, 60_000);
});
