import { closeServer, runService, startHealthServer } from "@sweep/common";
import { environmentChainIds } from "@sweep/chain";
import { createDb } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import { loadWebhookDispatcherConfig } from "./config";

void runService("webhook-dispatcher", () => loadWebhookDispatcherConfig(), async ({ config, logger }) => {
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: environmentChainIds(config.SERVICE_ENV), prefix: config.AMQP_PREFIX, logger });

  const health = await startHealthServer(config.HEALTH_PORT, messaging.isConnected, config.HOST);

  return [
    { name: "database", close: () => db.$disconnect() },
    ...messaging.closers,
    { name: "health", close: () => closeServer(health) },
  ];
});
