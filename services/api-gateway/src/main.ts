import { closeServer, listen, runService } from "@sweep/common";
import { environmentChainIds } from "@sweep/chain";
import { createDb } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import Redis from "ioredis";
import { createApp } from "./app";
import { loadGatewayConfig } from "./config";

void runService("api-gateway", () => loadGatewayConfig(), async ({ config, logger }) => {
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();

  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: environmentChainIds(config.SERVICE_ENV), prefix: config.AMQP_PREFIX, logger, db });

  const app = createApp({ logger, publicUrl: config.PUBLIC_URL });
  const server = await listen(app, config.PORT, config.HOST);
  logger.info("listening", { url: `http://${config.HOST}:${config.PORT}` });

  return [
    { name: "database", close: () => db.$disconnect() },
    { name: "redis", close: () => redis.quit() },
    ...messaging.closers,
    { name: "http", close: () => closeServer(server) },
  ];
});
