/**
 * The message of a recorded event wakes the delivery loop whenever the event's delivery is
 * pending, whether recordEvents opened it with the event or the consumer opens it (a message
 * recorded before recordEvents did so): with a poll far longer than the test, only that wake sends it.
 */
import { makeCertificates, startReceiver, startService, type Receiver, type ServiceProcess, type TestCertificates } from "@sweep/testkit";
import { deliveryOf, deliveryWhen, openWorld, partnerWithWebhook, recordAndAnnounce, recordWithDelivery, type DispatcherWorld } from "./support";

describe("the delivery loop's wake by a recorded event", () => {
  let world: DispatcherWorld;
  let certificates: TestCertificates;
  let receiver: Receiver;
  let dispatcher: ServiceProcess | undefined;

  beforeAll(async () => {
    world = await openWorld("webhook-wake-test");
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    dispatcher = await startService("webhook-dispatcher", {
      DATABASE_URL: world.databaseUrl,
      AMQP_PREFIX: world.prefix,
      NODE_EXTRA_CA_CERTS: certificates.caPath,
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_ALLOW_HTTP: "true",
      DELIVERY_POLL_MS: "3600000",
    });
  });

  afterAll(async () => {
    await dispatcher?.kill();
    await receiver?.close();
    certificates?.remove();
    await world?.close();
  });

  it.each<[string, typeof recordWithDelivery]>([
    ["its delivery opened with the event", recordWithDelivery],
    ["its delivery opened by the consumer", (w, partnerId, type, payload) => recordAndAnnounce(w, partnerId, type, { payload })],
  ])("sends an event with %s without waiting for the poll", async (name, record) => {
    const webhookPath = `/${name.split(" ").at(-1)}`;
    const partner = await partnerWithWebhook(world.db, receiver.url(webhookPath));
    receiver.route(webhookPath, partner.secret, (res) => res.writeHead(204).end());

    const eventId = await record(world, partner.partnerId, "webhook.test", { message: name });

    await deliveryWhen(world.db, eventId, "the delivery", (d) => d.status === "delivered", 10_000);
    expect(receiver.received(webhookPath).map((r) => [r.headers["service-delivery"], r.verified])).toEqual([[eventId, true]]);
  });

  it("opens none for a partner without a webhook", async () => {
    const { partnerId } = await partnerWithWebhook(world.db, null);
    const eventId = await recordWithDelivery(world, partnerId, "webhook.test", { message: "nobody listens" });
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveryOf(world.db, eventId)).toBeNull();
  });
});
