import { closeServer, runService, startHealthServer } from "@sweep/common";
import { environmentChainIds, servedChains } from "@sweep/chain";
import { createDb } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import { loadChainSenderConfig } from "./config";

void runService("chain-sender", () => loadChainSenderConfig(), async ({ config, logger }) => {
  const chains = servedChains(config.SERVICE_ENV, config.CHAINS);
  logger.info("serving chains", { chains: chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })) });
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: environmentChainIds(config.SERVICE_ENV), prefix: config.AMQP_PREFIX, logger, db });

  const health = await startHealthServer(config.HEALTH_PORT, messaging.isConnected, config.HOST);

  return [
    { name: "database", close: () => db.$disconnect() },
    ...messaging.closers,
    { name: "health", close: () => closeServer(health) },
  ];
});
