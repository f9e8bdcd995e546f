import { lookup } from "node:dns/promises";
import { closeServer, healthUrls, runService, startHealthServer } from "@sweep/common";
import { createDb } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import { reportWebhookBacklog } from "@sweep/metrics";
import { version } from "../package.json";
import { loadWebhookDispatcherConfig } from "./config";
import { startDeliveryLoop } from "./delivery-loop";
import { deliveryBacklog } from "./delivery-store";
import { startEventsConsumer } from "./events-consumer";

void runService("webhook-dispatcher", () => loadWebhookDispatcherConfig(), async ({ config, logger }) => {
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: config.chainIds, prefix: config.AMQP_PREFIX, logger });

  const now = () => new Date();
  const deliveries = startDeliveryLoop({
    db,
    pollMs: config.DELIVERY_POLL_MS,
    limits: { maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT, partnerMaxInFlight: config.WEBHOOK_PARTNER_MAX_IN_FLIGHT },
    attempt: {
      db,
      lookup: (hostname) => lookup(hostname, { all: true, verbatim: true }),
      reach: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, allowHttp: config.WEBHOOK_ALLOW_HTTP },
      timeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
      retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
      userAgent: `sweep-service-webhooks/${version}`,
      now,
      logger,
    },
    logger,
  });
  if (config.WEBHOOK_ALLOW_PRIVATE) logger.warn("WEBHOOK_ALLOW_PRIVATE is set: webhooks may reach loopback and private addresses (local development only)");
  if (config.WEBHOOK_ALLOW_HTTP) logger.warn("WEBHOOK_ALLOW_HTTP is set: webhooks may be delivered over plain http (local development only)");

  const consumer = await startEventsConsumer(messaging, { db, now, deliveryPending: () => deliveries.nudge() }, logger);

  // Read at each scrape: every dispatcher shows the same values (take the max).
  const stopBacklogGauges = reportWebhookBacklog(() => deliveryBacklog(db));

  const health = await startHealthServer(config.HEALTH_PORT, messaging.isConnected, config.HOST);
  logger.info("listening", healthUrls(health));

  // Closed in reverse: health, then no new events, then the attempts under way finish and are recorded.
  return [
    { name: "database", close: () => db.$disconnect() },
    { name: "backlog gauges", close: async () => stopBacklogGauges() },
    ...messaging.closers,
    { name: "delivery loop", close: () => deliveries.stop() },
    { name: "events consumer", close: () => consumer.stop() },
    { name: "health", close: () => closeServer(health) },
  ];
});
