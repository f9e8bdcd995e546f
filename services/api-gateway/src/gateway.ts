import { closeServer, healthUrls, listen, redisKeyPrefix, serverUrl, startHealthServer, type Closer, type Logger } from "@sweep/common";
import { connectChains, describeChain, environmentChainIds } from "@sweep/chains";
import { createDb, pgOutboxRound } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import Redis from "ioredis";
import { Pool } from "pg";
import { createApp } from "./app";
import { resolveCacheSecret } from "./auth/cache-seal";
import { gatewayChains } from "./chains";
import type { GatewayConfig } from "./config";
import { workerIndex, workerReady } from "./gateway-workers";
import { defaultRateLimits } from "./rate-limits/gateway-limits";
import { startRequestLogRetention } from "./requests/request-log-retention";
import { requestLogWriter } from "./requests/request-log-writer";

/**
 * The api-gateway's process: its connections, the API on PORT and the management server (/healthz,
 * /metrics) on METRICS_PORT. Run alone, or as each worker of several (gateway-workers.ts).
 */
export async function startGateway(config: GatewayConfig, serviceLogger: Logger): Promise<Closer[]> {
  // A worker of several (GATEWAY_WORKERS) names itself in its lines, shares the API's port and has a management port of its own.
  const worker = workerIndex();
  const logger = worker === undefined ? serviceLogger : serviceLogger.child({ worker });
  const chains = gatewayChains(config.chains);
  // Before any connection: mainnet without the secret stops here.
  const apiKeyCacheSecret = resolveCacheSecret(config, (message) => logger.warn(message));
  // Nodes only for GET /v1/balance: nothing else in the API asks a chain.
  const nodes = connectChains(config.chains, { timeoutMs: config.BALANCE_RPC_TIMEOUT_MS });
  logger.info("serving chains", { chains: config.chains.map(describeChain) });

  const db = createDb(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  await db.$queryRaw`SELECT 1`;
  const pool = new Pool({ connectionString: config.DATABASE_URL, max: config.SWEEP_INSERT_POOL_SIZE });
  await pool.query("SELECT 1");
  // Each partner request's entry, written behind its response; deleted after 30 days by every gateway.
  const requestLog = requestLogWriter(pool, logger);
  const requestLogRetention = startRequestLogRetention({ db, intervalMs: 10 * 60_000, logger });

  // Auto-pipelining: the key look-ups of concurrent requests share one write to Redis. The key prefix keeps
  // rate limits and cached look-ups apart when several environments (or test stacks) share one Redis.
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    keyPrefix: redisKeyPrefix(config.REDIS_KEY_PREFIX),
  });
  await redis.connect();

  // Every accepted POST wakes the relay: the messages of the requests of 10 ms share one of its rounds, through pg as the inserts.
  const messaging = await openMessaging({
    url: config.RABBITMQ_URL,
    chainIds: environmentChainIds(config.SERVICE_ENV),
    prefix: config.AMQP_PREFIX,
    logger,
    db,
    relayWakeDelayMs: 10,
    outboxRound: pgOutboxRound(pool, 30_000),
  });

  const app = createApp({
    logger,
    db,
    pool,
    redis,
    environment: config.SERVICE_ENV,
    chains,
    nodes: new Map(nodes.map((node) => [node.chainId, node.provider])),
    balanceRpcTimeoutMs: config.BALANCE_RPC_TIMEOUT_MS,
    balanceCacheMs: config.balanceCacheMs,
    webhookAllowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    webhookAllowHttp: config.WEBHOOK_ALLOW_HTTP,
    names: messaging.topology.names,
    apiKeyCacheTtlSeconds: config.API_KEY_CACHE_TTL_SECONDS,
    apiKeyCacheSecret,
    maxHotWalletsPerChain: config.HOT_WALLETS_MAX_PER_CHAIN,
    apiKeyLookupLimits: { concurrency: config.API_KEY_LOOKUP_CONCURRENCY, maxWaiting: config.API_KEY_LOOKUP_QUEUE },
    rateLimits: {
      ...defaultRateLimits,
      perAddressPerSecond: config.RATE_LIMIT_PER_ADDRESS,
      perKeyPerSecond: config.RATE_LIMIT_PER_KEY,
      perKeyBurst: config.RATE_LIMIT_PER_KEY_BURST,
      webhookTestsPerMinute: config.RATE_LIMIT_WEBHOOK_TESTS,
      consoleSignInsPerMinute: config.RATE_LIMIT_CONSOLE_SIGN_INS,
    },
    publicUrl: config.PUBLIC_URL,
    trustProxy: config.TRUST_PROXY,
    requestLog,
    onOutbox: () => messaging.relay?.wake(),
  });
  const server = await listen(app, config.PORT, config.HOST, {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
  const metricsPort = worker === undefined || config.METRICS_PORT === 0 ? config.METRICS_PORT : config.METRICS_PORT + worker;
  const management = await startHealthServer(metricsPort, () => true, config.HOST, { exclusive: worker !== undefined });
  const where = { url: serverUrl(server), metrics: healthUrls(management).metrics };
  if (worker === undefined) logger.info("listening", where);
  else workerReady(logger, where);

  return [
    { name: "chain providers", close: () => nodes.forEach((node) => node.provider.destroy()) },
    { name: "database", close: () => db.$disconnect() },
    { name: "database pool", close: () => pool.end() },
    // Closed in reverse: written once the server took its last request, before the pool closes.
    { name: "request log", close: () => requestLog.flush() },
    { name: "request log retention", close: () => requestLogRetention.stop() },
    { name: "redis", close: () => redis.quit() },
    ...messaging.closers,
    { name: "http", close: () => closeServer(server) },
    { name: "management http", close: () => closeServer(management) },
  ];
}
