import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { connectChains, environmentChainIds, loadChainConfigs } from "@sweep/chains";
import { createLogger, redisKeyPrefix } from "@sweep/common";
import { delegateAddress } from "@sweep/contracts";
import { createDb, type Db } from "@sweep/db";
import { queueNames, type QueueNames } from "@sweep/messaging";
import { createTestPartner, type TestPartner } from "@sweep/testkit";
import { Wallet } from "ethers";
import type express from "express";
import Redis from "ioredis";
import { Pool } from "pg";
import { createApp } from "../src/app";
import { gatewayChains, type GatewayChain } from "../src/chains";
import { defaultRateLimits, type RateLimitSettings } from "../src/rate-limits/gateway-limits";
import type { RequestLogBuffer } from "../src/requests/request-log-buffer";
import { requestLogWriter } from "../src/requests/request-log-writer";

export const SEPOLIA = 11155111;
export const BSC_TESTNET = 97;

/** The gateway on the shared test database and the local Redis, with a topology prefix of its own. */
export interface TestGateway {
  app: express.Express;
  db: Db;
  pool: Pool;
  redis: Redis;
  names: QueueNames;
  chains: GatewayChain[];
  /** the request log's entries not yet written: flush() writes them */
  requestLog: RequestLogBuffer;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  onOutbox?: () => void;
  /** the gateway's environment variables, e.g. a test chain's RPC_URL_<chain_id>; a chain without one has a node that refuses connections */
  env?: Record<string, string>;
  balanceRpcTimeoutMs?: number;
  /** GET /v1/balance's cache per chain; none unless given, as tests set a balance and read it at once */
  balanceCacheMs?: ReadonlyMap<number, number>;
  /** the defaults unless given (a test of a limit gives a keyPrefix of its own) */
  rateLimits?: Partial<RateLimitSettings>;
  /** TRUST_PROXY */
  trustProxy?: number | string;
  /** a database of the test's own (createTestDatabase), for tests that run services on it; the shared test database without */
  databaseUrl?: string;
  /** REDIS_KEY_PREFIX: the gateway's Redis client prefixes every key with it, as the service's does */
  redisKeyPrefix?: string;
  /** the console's built pages; a folder that does not exist unless given (the pages are built by prepare-workspace, not for these tests) */
  consoleDist?: string;
  /** WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP, both off unless given (as in production) */
  webhookReach?: { allowPrivate: boolean; allowHttp: boolean };
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL!;
  const db = createDb(databaseUrl, { poolSize: 10 });
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    keyPrefix: redisKeyPrefix(options.redisKeyPrefix),
  });
  await redis.connect();
  const names = queueNames(`gw-test-${randomBytes(4).toString("hex")}`);
  const env = options.env ?? {};
  // Never a developer's running devnet: a chain the test does not point anywhere gets a dead port.
  const deadNode = await closedPortUrl();
  const configs = loadChainConfigs("testnet", undefined, { ...Object.fromEntries(environmentChainIds("testnet").map((id) => [`RPC_URL_${id}`, deadNode])), ...env });
  const chains = gatewayChains(configs);
  const nodes = connectChains(configs, { timeoutMs: options.balanceRpcTimeoutMs ?? 3_000 });
  const logger = createLogger("api-gateway-test", "error");
  const requestLog = requestLogWriter(pool, logger);
  const app = createApp({
    logger,
    db,
    pool,
    redis,
    environment: "testnet",
    chains,
    nodes: new Map(nodes.map((node) => [node.chainId, node.provider])),
    balanceRpcTimeoutMs: options.balanceRpcTimeoutMs ?? 3_000,
    balanceCacheMs: options.balanceCacheMs ?? new Map(),
    names,
    apiKeyCacheTtlSeconds: 30,
    rateLimits: { ...defaultRateLimits, ...options.rateLimits },
    trustProxy: options.trustProxy,
    onOutbox: options.onOutbox,
    consoleDist: options.consoleDist ?? "/nonexistent/console-ui/dist",
    webhookAllowPrivate: options.webhookReach?.allowPrivate,
    webhookAllowHttp: options.webhookReach?.allowHttp,
    requestLog,
  });
  return {
    app,
    db,
    pool,
    redis,
    names,
    chains,
    requestLog,
    close: async () => {
      nodes.forEach((node) => node.provider.destroy());
      await requestLog.flush();
      await Promise.all([db.$disconnect(), pool.end(), redis.quit()]);
    },
  };
}

/** An http URL on a local port nothing listens on: connections to it are refused at once. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export const randomAddress = () => Wallet.createRandom().address;

export function chainOf(gateway: TestGateway, chainId: number): GatewayChain {
  return gateway.chains.find((c) => c.chainId === chainId)!;
}

/** A hot wallet of the partner, as registration stores it, in the given state. */
export async function hotWalletIn(
  gateway: TestGateway,
  partner: TestPartner,
  status: "pending" | "active" | "failed",
  chainId = SEPOLIA,
): Promise<{ id: string; address: string; delegate: string }> {
  const address = randomAddress();
  const delegate = delegateAddress(chainOf(gateway, chainId).factory, address, partner.gasWallet);
  const row = await gateway.db.hotWallet.create({
    data: { partnerId: partner.partnerId, chainId, address, delegate, status, error: status === "failed" ? "insufficient_gas_balance" : null },
  });
  return { id: row.id, address, delegate };
}

export { createTestPartner };
