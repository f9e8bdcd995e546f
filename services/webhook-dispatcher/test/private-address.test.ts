/** Without WEBHOOK_ALLOW_PRIVATE (as in production), a webhook on a loopback address or over plain http is never called. */
import { startService, type ServiceProcess } from "@sweep/testkit";
import { makeCertificates, startReceiver, type Receiver, type TestCertificates } from "@sweep/testkit";
import { deliveryWhen, openWorld, partnerWithWebhook, recordAndAnnounce, type DispatcherWorld } from "./support";

describe("webhook delivery to a private address", () => {
  let world: DispatcherWorld;
  let certificates: TestCertificates;
  let receiver: Receiver;
  let plainReceiver: Receiver;
  let dispatcher: ServiceProcess | undefined;

  beforeAll(async () => {
    world = await openWorld("webhook-private-test");
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    plainReceiver = await startReceiver();
    dispatcher = await startService("webhook-dispatcher", {
      DATABASE_URL: world.databaseUrl,
      AMQP_PREFIX: world.prefix,
      NODE_EXTRA_CA_CERTS: certificates.caPath,
      WEBHOOK_ALLOW_PRIVATE: "",
      DELIVERY_POLL_MS: "50",
    });
  });

  afterAll(async () => {
    await dispatcher?.kill();
    await receiver?.close();
    await plainReceiver?.close();
    certificates?.remove();
    await world?.close();
  });

  it("refuses 127.0.0.1: private address refused, nothing sent", async () => {
    const partner = await partnerWithWebhook(world.db, receiver.url("/loopback"));
    receiver.route("/loopback", partner.secret, (res) => res.writeHead(200).end());
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "inside" } });

    const delivery = await deliveryWhen(world.db, eventId, "the refused attempt", (d) => d.attempts >= 1);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, lastError: "private address refused" });
    expect(receiver.received("/loopback")).toEqual([]);
  });

  it("refuses plain http: connection failed, nothing sent", async () => {
    const partner = await partnerWithWebhook(world.db, plainReceiver.url("/plain"));
    plainReceiver.route("/plain", partner.secret, (res) => res.writeHead(200).end());
    const eventId = await recordAndAnnounce(world, partner.partnerId, "webhook.test", { payload: { message: "plain" } });

    const delivery = await deliveryWhen(world.db, eventId, "the refused attempt", (d) => d.attempts >= 1);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, lastError: "connection failed" });
    expect(plainReceiver.received("/plain")).toEqual([]);
  });
});
