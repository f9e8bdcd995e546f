import { openApiYaml } from "@sweep/api-contract";
import type { Environment, Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import express from "express";
import type Redis from "ioredis";
import type { Pool } from "pg";
import { apiReferenceRoutes } from "./api-reference/routes";
import { ApiKeyLookup, defaultLookupLimits, type ApiKeyLookupLimits } from "./auth/api-key-lookup";
import { authenticate } from "./auth/authenticate";
import { CacheSeal, DEVELOPMENT_CACHE_SECRET } from "./auth/cache-seal";
import { KeyUsage } from "./auth/key-usage";
import type { BalanceNode } from "./balance/node-balance";
import { BalanceCache } from "./balance/balance-cache";
import { balanceRoutes } from "./balance/routes";
import type { GatewayChain } from "./chains";
import { DEFAULT_CONSOLE_DIST } from "./console/pages";
import { consoleRoutes } from "./console/routes";
import { ConsoleSessions } from "./console/session-store";
import { DEFAULT_MAX_HOT_WALLETS_PER_CHAIN, hotWalletRoutes } from "./hot-wallets/routes";
import { errorHandler } from "./http/errors";
import { jsonBody } from "./http/json-body";
import { depositAddressRoutes } from "./deposit-addresses/routes";
import { depositRoutes } from "./deposits/routes";
import { eventRoutes } from "./events/routes";
import { sweepPolicyRoutes } from "./sweep-policies/routes";
import { requestLogging } from "./http/request-log";
import { requestMetrics } from "./http/request-metrics";
import { recordRequests, type RequestLogSink } from "./requests/request-log-entry";
import { requestLogRoutes } from "./requests/routes";
import { notFound, refuseOptions } from "./http/unrouted";
import { gatewayLimits, type RateLimitSettings } from "./rate-limits/gateway-limits";
import { limitPerAddress, limitPerKey, limitSignIns } from "./rate-limits/limit-requests";
import { ledgerRoutes } from "./ledger/routes";
import { revocationRoutes } from "./revocations/routes";
import { settingsRoutes } from "./settings/routes";
import { HotWalletDirectory } from "./sweeps/hot-wallet-directory";
import { sweepRoutes } from "./sweeps/routes";
import { sweepInserts } from "./sweeps/sweep-insert";
import { tariffRoutes } from "./tariff/routes";
import { usageRoutes } from "./usage/routes";
import { webhookRoutes } from "./webhooks/routes";

export interface AppDeps {
  logger: Logger;
  db: Db;
  /** Postgres through pg, for the inserts of POST /v1/sweeps and /v1/revocations (see sweeps/sweep-insert.ts) */
  pool: Pool;
  redis: Redis;
  environment: Environment;
  chains: readonly GatewayChain[];
  /** each chain's node, read by GET /v1/balance only */
  nodes: ReadonlyMap<number, BalanceNode>;
  /** GET /v1/balance: a node slower than this shows chain_unavailable */
  balanceRpcTimeoutMs: number;
  /** GET /v1/balance: how long a node's answer is kept, per chain (about a block's time) */
  balanceCacheMs: ReadonlyMap<number, number>;
  /** local development only: webhook URLs may name private or loopback hosts */
  webhookAllowPrivate?: boolean;
  webhookAllowHttp?: boolean;
  /** messaging's topology names, so outbox rows follow AMQP_PREFIX */
  names: QueueNames;
  apiKeyCacheTtlSeconds: number;
  /** database look-ups of keys not found before (a flood of made-up keys); defaultLookupLimits without */
  apiKeyLookupLimits?: ApiKeyLookupLimits;
  /** signs cached key look-ups (resolveCacheSecret); the public development secret without, as in tests */
  apiKeyCacheSecret?: string;
  /** hot wallets a partner may register per chain; DEFAULT_MAX_HOT_WALLETS_PER_CHAIN without */
  maxHotWalletsPerChain?: number;
  rateLimits: RateLimitSettings;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client; none without */
  trustProxy?: number | string;
  publicUrl?: string;
  /** where each partner request's entry of the request log goes once answered (RequestLogBuffer) */
  requestLog: RequestLogSink;
  /** called after a transaction wrote outbox rows (the relay publishes them at once) */
  onOutbox?: () => void;
  /** the console's built pages; packages/console-ui/dist without */
  consoleDist?: string;
}

/** The partner API as an express app; main.ts gives it its connections. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // No ETag of every answer's body (a SHA-1 a request): the API's answers change, lists page by cursor.
  app.set("etag", false);
  app.set("trust proxy", deps.trustProxy ?? false);
  app.use(requestLogging(deps.logger));
  app.use(requestMetrics);
  app.use(recordRequests(deps.requestLog));

  const limits = gatewayLimits(deps.redis, deps.rateLimits, deps.logger);
  // Before anything else of /v1: a flood of made-up keys costs one Redis call each, no key look-up.
  app.use("/v1", limitPerAddress(limits.perAddress));

  const openApi = openApiYaml(deps.publicUrl);
  app.get("/healthz", (_req, res) => {
    res.status(204).end();
  });
  app.get("/v1/openapi.yaml", (_req, res) => {
    res.type("application/yaml").send(openApi);
  });

  // A request without a valid key is refused before its body is read; outside /v1 no body is read at all.
  const seal = new CacheSeal(deps.apiKeyCacheSecret ?? DEVELOPMENT_CACHE_SECRET);
  const keys = new ApiKeyLookup(deps.db, deps.redis, deps.apiKeyCacheTtlSeconds, deps.logger, deps.apiKeyLookupLimits ?? defaultLookupLimits, seal);
  const sessions = new ConsoleSessions(deps.db);
  app.use("/v1", authenticate(keys, deps.environment, sessions, new KeyUsage(deps.db, deps.logger)));
  app.use("/v1", limitPerKey(limits.perKey));
  app.use("/v1", jsonBody);

  app.use(refuseOptions(app));

  const chains = new Map(deps.chains.map((chain) => [chain.chainId, chain]));
  const onOutbox = deps.onOutbox ?? (() => {});
  // POST /v1/sweeps first: every router before it is a layer each request walks through.
  app.use(sweepRoutes({ db: deps.db, sweepInserts: sweepInserts(deps.pool, deps.logger), names: deps.names, chains, hotWallets: new HotWalletDirectory(deps.db), onOutbox }));
  app.use(balanceRoutes({ db: deps.db, chains, nodes: deps.nodes, rpcTimeoutMs: deps.balanceRpcTimeoutMs, cache: new BalanceCache(deps.balanceCacheMs) }));
  app.use(tariffRoutes({ db: deps.db, chains }));
  app.use(settingsRoutes({ db: deps.db, chains }));
  app.use(ledgerRoutes({ db: deps.db, chains }));
  app.use(usageRoutes({ db: deps.db, chains }));
  app.use(hotWalletRoutes({ db: deps.db, names: deps.names, chains, onOutbox, maxPerChain: deps.maxHotWalletsPerChain ?? DEFAULT_MAX_HOT_WALLETS_PER_CHAIN }));
  app.use(revocationRoutes({ db: deps.db, pool: deps.pool, names: deps.names, chains, onOutbox }));
  app.use(depositAddressRoutes({ db: deps.db, chains }));
  app.use(depositRoutes({ db: deps.db, chains }));
  app.use(eventRoutes({ db: deps.db, chains }));
  app.use(requestLogRoutes({ db: deps.db, chains }));
  app.use(sweepPolicyRoutes({ db: deps.db, chains }));
  app.use(webhookRoutes({ db: deps.db, names: deps.names, chains, onOutbox, reach: { allowPrivate: deps.webhookAllowPrivate ?? false, allowHttp: deps.webhookAllowHttp ?? false }, testEventLimit: limits.webhookTests }));
  app.use(
    consoleRoutes({
      db: deps.db,
      redis: deps.redis,
      logger: deps.logger,
      environment: deps.environment,
      chains,
      sessions,
      perAddressLimit: limitPerAddress(limits.perAddress),
      signInLimit: limitSignIns(limits.consoleSignIns),
      distDir: deps.consoleDist ?? DEFAULT_CONSOLE_DIST,
    }),
  );
  app.use(apiReferenceRoutes());

  app.use(notFound(app));
  app.use(errorHandler);
  return app;
}
