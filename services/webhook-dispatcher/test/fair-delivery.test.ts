/**
 * The dispatcher as its own process, at the spec's 10 s attempt limit: a partner whose endpoint
 * hangs, with hundreds of deliveries due, holds only its share of the attempts, and another
 * partner's event is still delivered within seconds.
 */
import { eventually, makeCertificates, startReceiver, startService, type Receiver, type ServiceProcess, type TestCertificates } from "@sweep/testkit";
import { deliveryWhen, openWorld, partnerWithWebhook, recordWithDelivery, type DispatcherWorld } from "./support";

const PARTNER_MAX_IN_FLIGHT = 5;
const HANGING_BACKLOG = 300;

describe("fair webhook delivery", () => {
  let world: DispatcherWorld;
  let certificates: TestCertificates;
  let receiver: Receiver;
  let dispatcher: ServiceProcess | undefined;

  beforeAll(async () => {
    world = await openWorld("webhook-fair-test");
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
  });

  afterAll(async () => {
    await dispatcher?.kill();
    await receiver?.close();
    certificates?.remove();
    await world?.close();
  });

  it("delivers another partner's event within seconds while a hanging endpoint has hundreds due", async () => {
    const hanging = await partnerWithWebhook(world.db, receiver.url("/hanging"));
    receiver.route("/hanging", hanging.secret, () => undefined);
    const prompt = await partnerWithWebhook(world.db, receiver.url("/prompt"));
    receiver.route("/prompt", prompt.secret, (res) => res.writeHead(204).end());

    // Due for a minute already: ahead of anything recorded now in a claim by due time alone.
    const dueSince = new Date(Date.now() - 60_000);
    for (let i = 0; i < HANGING_BACKLOG; i++) {
      const event = await world.db.event.create({ data: { partnerId: hanging.partnerId, type: "webhook.test", payload: { message: `backlog ${i}` } } });
      await world.db.webhookDelivery.create({ data: { eventId: event.id, partnerId: hanging.partnerId, nextAttemptAt: dueSince, createdAt: event.createdAt } });
    }

    dispatcher = await startService("webhook-dispatcher", {
      DATABASE_URL: world.databaseUrl,
      AMQP_PREFIX: world.prefix,
      NODE_EXTRA_CA_CERTS: certificates.caPath,
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ATTEMPT_TIMEOUT_MS: "10000",
      WEBHOOK_PARTNER_MAX_IN_FLIGHT: String(PARTNER_MAX_IN_FLIGHT),
      DELIVERY_POLL_MS: "500",
    });
    await eventually("the hanging endpoint's share under way", async () => receiver.received("/hanging").length >= PARTNER_MAX_IN_FLIGHT || undefined, 20_000, 50);

    const recordedAt = Date.now();
    const eventId = await recordWithDelivery(world, prompt.partnerId, "webhook.test", { message: "not behind them" });
    const delivery = await deliveryWhen(world.db, eventId, "the other partner's delivery", (d) => d.status === "delivered", 5_000);
    const tookMs = delivery.deliveredAt!.getTime() - recordedAt;

    expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 204 });
    expect(tookMs).toBeLessThan(3_000);
    // The hanging endpoint holds its share and no more: none of its attempts has timed out yet.
    expect(receiver.received("/hanging")).toHaveLength(PARTNER_MAX_IN_FLIGHT);
    expect(receiver.received("/prompt")).toHaveLength(1);
  }, 60_000);
});
