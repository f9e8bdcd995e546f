/**
 * The dispatcher as its own process (main.ts) delivering to a local HTTPS receiver that trusts
 * nothing but the signatures: events from the queue, retries, redirects, timeouts, a crash; and,
 * as WEBHOOK_ALLOW_PRIVATE is set here (local development), to a plain-http receiver.
 */
import { presentHotWallet } from "@sweep/api-contract";
import { version } from "../package.json";
import { createHmac } from "node:crypto";
import { eventually, makeCertificates, startReceiver, startService, type Receiver, type ServiceProcess, type TestCertificates } from "@sweep/testkit";
import { deliveryOf, deliveryWhen, openWorld, partnerWithWebhook, randomAddress, recordAndAnnounce, type DispatcherWorld } from "./support";

const ATTEMPT_TIMEOUT_MS = 1_000;
const RETRY_BASE_MS = 300;

describe("webhook delivery", () => {
  let world: DispatcherWorld;
  let certificates: TestCertificates;
  let receiver: Receiver;
  let plainReceiver: Receiver;
  let dispatcher: ServiceProcess | undefined;

  const startDispatcher = () =>
    startService("webhook-dispatcher", {
      DATABASE_URL: world.databaseUrl,
      AMQP_PREFIX: world.prefix,
      NODE_EXTRA_CA_CERTS: certificates.caPath,
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      WEBHOOK_ATTEMPT_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
      DELIVERY_POLL_MS: "50",
    });

  /** A partner whose webhook is a path of the receiver, answered by `responder`. */
  async function receivingPartner(webhookPath: string, responder: Parameters<Receiver["route"]>[2]) {
    const partner = await partnerWithWebhook(world.db, receiver.url(webhookPath));
    receiver.route(webhookPath, partner.secret, responder);
    return partner;
  }

  beforeAll(async () => {
    world = await openWorld("webhook-delivery-test");
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    plainReceiver = await startReceiver();
    dispatcher = await startDispatcher();
  });

  afterAll(async () => {
    await dispatcher?.kill();
    await receiver?.close();
    await plainReceiver?.close();
    certificates?.remove();
    await world?.close();
  });

  it("delivers an event with its subject as it is now, signed, with the spec's headers", async () => {
    const partner = await receivingPartner("/delivered", (res) => res.writeHead(204).end());
    const hotWallet = await world.db.hotWallet.create({ data: { partnerId: partner.partnerId, chainId: 97, address: randomAddress(), delegate: randomAddress(), status: "active", txHash: `0x${"ab".repeat(32)}` } });
    const eventId = await recordAndAnnounce(world, partner.partnerId, "hot_wallet.active", { subjectId: hotWallet.id });

    const delivery = await deliveryWhen(world.db, eventId, "the delivery", (d) => d.status === "delivered");
    const event = await world.db.event.findUniqueOrThrow({ where: { id: eventId } });
    expect(delivery).toMatchObject({ partnerId: partner.partnerId, attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null, createdAt: event.createdAt });
    expect(delivery.deliveredAt).toBeInstanceOf(Date);

    const [received, ...more] = receiver.received("/delivered");
    expect(more).toEqual([]);
    expect(received!.verified).toBe(true);
    expect(received!.headers).toMatchObject({
      "content-type": "application/json",
      "service-event": "hot_wallet.active",
      "service-delivery": eventId,
      "user-agent": `sweep-service-webhooks/${version}`,
    });
    expect(JSON.parse(received!.body)).toEqual({ id: eventId, type: "hot_wallet.active", created_at: event.createdAt.toISOString(), data: presentHotWallet(hotWallet) });
  });

  it("signs with the new secret and the old one while a rotation's overlap lasts, and with the new one alone after it", async () => {
    const partner = await receivingPartner("/rotated", (res) => res.writeHead(204).end());
    // Rotated as POST /v1/webhook/rotate-secret does; the receiver still holds the old secret.
    const fresh = "whsec_rotated_secret_for_the_overlap_test_0001";
    await world.db.webhook.update({ where: { partnerId: partner.partnerId }, data: { secret: fresh, previousSecret: partner.secret, previousSecretUntil: new Date(Date.now() + 3_600_000) } });
    const during = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "during" } });
    await deliveryWhen(world.db, during, "the delivery during the overlap", (d) => d.status === "delivered");
    const [received] = receiver.received("/rotated");
    expect(received!.verified).toBe(true);
    const signatures = (received!.headers["service-signature"] as string).split(",");
    const t = signatures[0]!.slice(2);
    expect(signatures.slice(1)).toEqual([`v1=${createHmac("sha256", fresh).update(`${t}.${received!.body}`).digest("hex")}`, `v1=${createHmac("sha256", partner.secret).update(`${t}.${received!.body}`).digest("hex")}`]);

    await world.db.webhook.update({ where: { partnerId: partner.partnerId }, data: { previousSecretUntil: new Date(Date.now() - 1_000) } });
    const after = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "after" } });
    await deliveryWhen(world.db, after, "the delivery after the overlap", (d) => d.status === "pending" || d.status === "delivered");
    await eventually("the second attempt received", async () => receiver.received("/rotated")[1]);
    const second = receiver.received("/rotated")[1]!;
    // One signature, the new secret's: the receiver still on the old one can no longer verify it.
    expect((second.headers["service-signature"] as string).split(",").filter((part) => part.startsWith("v1="))).toHaveLength(1);
    expect(second.verified).toBe(false);
  });

  it("opens no delivery for a partner without a webhook, and delivers fixed data as recorded", async () => {
    const bare = await partnerWithWebhook(world.db, null);
    const unsent = await recordAndAnnounce(world, bare.partnerId, "webhook.test", { payload: { message: "nobody listens" } });
    const partner = await receivingPartner("/fixed-data", (res) => res.writeHead(200).end("ok"));
    const sent = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "hello" } });

    await deliveryWhen(world.db, sent, "the delivery", (d) => d.status === "delivered");
    expect(JSON.parse(receiver.received("/fixed-data")[0]!.body)).toMatchObject({ id: sent, type: "webhook.test", data: { message: "hello" } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveryOf(world.db, unsent)).toBeNull();
  });

  it("retries a 500 after the first pause, signing the retry anew, and records the 2xx", async () => {
    const partner = await receivingPartner("/retry", (res, n) => res.writeHead(n === 1 ? 500 : 202).end());
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "again" } });

    const failed = await deliveryWhen(world.db, eventId, "the failed first attempt", (d) => d.attempts === 1);
    expect(failed).toMatchObject({ status: "pending", lastStatusCode: 500, lastError: "status 500" });
    const delivery = await deliveryWhen(world.db, eventId, "the delivery", (d) => d.status === "delivered");
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 202, lastError: null });

    const [first, second] = receiver.received("/retry");
    expect([first!.verified, second!.verified]).toEqual([true, true]);
    expect(second!.headers["service-delivery"]).toBe(eventId);
    expect(second!.body).toBe(first!.body);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(RETRY_BASE_MS - 50);
  });

  it("counts a redirect as a failed attempt and does not follow it", async () => {
    const partner = await receivingPartner("/redirect", (res) => res.writeHead(302, { Location: receiver.url("/elsewhere") }).end());
    receiver.route("/elsewhere", partner.secret, (res) => res.writeHead(200).end());
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "moved" } });

    const delivery = await deliveryWhen(world.db, eventId, "the failed attempt", (d) => d.attempts >= 1);
    expect(delivery).toMatchObject({ status: "pending", lastStatusCode: 302, lastError: "status 302" });
    expect(delivery.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() - RETRY_BASE_MS * 4);
    expect(receiver.received("/elsewhere")).toEqual([]);
  });

  it("gives up on an endpoint that never answers after the attempt's limit: timeout", async () => {
    const partner = await receivingPartner("/silent", () => undefined);
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "anyone?" } });

    const delivery = await deliveryWhen(world.db, eventId, "the timed-out attempt", (d) => d.attempts >= 1);
    expect(delivery).toMatchObject({ status: "pending", lastStatusCode: null, lastError: "timeout" });
    const [first] = receiver.received("/silent");
    expect(first!.verified).toBe(true);
  });

  it("fails a delivery whose webhook was deleted meanwhile without sending it: webhook removed", async () => {
    const partner = await receivingPartner("/removed", (res) => res.writeHead(200).end());
    const event = await world.db.event.create({ data: { partnerId: partner.partnerId, type: "webhook.test", payload: { message: "gone" } } });
    await world.db.webhook.delete({ where: { partnerId: partner.partnerId } });
    // The delivery opened while the webhook was still set.
    await world.db.webhookDelivery.create({ data: { eventId: event.id, partnerId: partner.partnerId, nextAttemptAt: new Date(), createdAt: event.createdAt } });

    const delivery = await deliveryWhen(world.db, event.id, "the failed delivery", (d) => d.status === "failed");
    expect(delivery).toMatchObject({ attempts: 0, lastStatusCode: null, lastError: "webhook removed", nextAttemptAt: null });
    expect(receiver.received("/removed")).toEqual([]);
  });

  it("delivers over plain http to a developer's receiver, signed as ever, and follows no redirect there either", async () => {
    const partner = await partnerWithWebhook(world.db, plainReceiver.url("/plain"));
    expect(plainReceiver.url("/plain")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/plain$/);
    plainReceiver.route("/plain", partner.secret, (res, n) => (n === 1 ? res.writeHead(307, { Location: plainReceiver.url("/elsewhere") }).end() : res.writeHead(200).end()));
    plainReceiver.route("/elsewhere", partner.secret, (res) => res.writeHead(200).end());
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "plain" } });

    const delivery = await deliveryWhen(world.db, eventId, "the delivery", (d) => d.status === "delivered");
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
    const received = plainReceiver.received("/plain");
    expect(received.map((r) => [r.headers["service-delivery"], r.verified])).toEqual([
      [eventId, true],
      [eventId, true],
    ]);
    expect(JSON.parse(received[1]!.body)).toMatchObject({ id: eventId, type: "webhook.test", data: { message: "plain" } });
    expect(plainReceiver.received("/elsewhere")).toEqual([]);
  });

  it("delivers at least once when the dispatcher is killed mid-delivery: a restarted one sends it when the lease ends", async () => {
    let sawFirst: () => void;
    const firstArrived = new Promise<void>((resolve) => (sawFirst = resolve));
    const partner = await receivingPartner("/crash", (res, n) => {
      if (n === 1) sawFirst();
      else res.writeHead(200).end();
    });
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "crash" } });

    await firstArrived;
    await dispatcher!.kill();
    dispatcher = await startDispatcher();

    const delivery = await deliveryWhen(world.db, eventId, "the delivery after the restart", (d) => d.status === "delivered", 30_000);
    // The killed attempt was never recorded; the one after the restart was.
    expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 200 });
    const received = receiver.received("/crash");
    expect(received.map((r) => [r.headers["service-delivery"], r.verified])).toEqual([
      [eventId, true],
      [eventId, true],
    ]);
  });
});
