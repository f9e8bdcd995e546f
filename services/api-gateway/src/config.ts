import { loadWithChains } from "@sweep/chains";
import { baseEnv, loadConfig, port } from "@sweep/common";
import { z } from "zod";
import { balanceCacheTtls } from "./balance/block-time";
import { defaultRateLimits } from "./rate-limits/gateway-limits";

export const gatewayEnv = z.object({
  ...baseEnv,
  PORT: port(8080),
  HOST: z.string().default("127.0.0.1"),
  /** the management port: /healthz and /metrics, kept off the partners' port (the spec puts every public path but /healthz under /v1) */
  METRICS_PORT: port(8085),
  /** the address partners use, written into the OpenAPI document's servers */
  PUBLIC_URL: z.url().optional(),
  /** how long an API key look-up is cached; sweepctl drops it at once on revoke or disable */
  API_KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** database look-ups at once of keys this process has not found before (what a flood of made-up keys causes) */
  /** the HMAC key of cached key look-ups (a write to Redis cannot mint a partner); required on mainnet, see resolveCacheSecret */
  API_KEY_CACHE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  API_KEY_LOOKUP_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2),
  /** such look-ups waiting; beyond, 500 internal (retry later) */
  API_KEY_LOOKUP_QUEUE: z.coerce.number().int().min(0).max(10_000).default(100),
  /**
   * Which proxies in front of the API to believe about the client's address (X-Forwarded-For), as
   * express's "trust proxy": a hop count ("1" behind one load balancer) or addresses and CIDRs
   * ("10.0.0.0/8, loopback"). Unset, none: the client address is the TCP peer.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(\d{1,2}|[0-9A-Za-z.:/,\s]+)$/, "a hop count, or comma-separated addresses, CIDRs, loopback, linklocal or uniquelocal")
    .transform((value): number | string => (/^\d+$/.test(value) ? Number(value) : value))
    .optional(),
  /** requests a second from one client address (an IPv6 /64), counted before the key is checked; 0 turns it off */
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(defaultRateLimits.perAddressPerSecond),
  /** requests a second with one API key; 0 turns it off */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(0).default(defaultRateLimits.perKeyPerSecond),
  /** requests a key may make over RATE_LIMIT_PER_KEY per 10 s window */
  RATE_LIMIT_PER_KEY_BURST: z.coerce.number().int().min(0).default(defaultRateLimits.perKeyBurst),
  /** POST /v1/webhook/test per partner per minute; 0 turns the limit off */
  RATE_LIMIT_WEBHOOK_TESTS: z.coerce.number().int().min(0).default(defaultRateLimits.webhookTestsPerMinute),
  /** console sign-ins per client address per minute (each a password guess and a slow hash); 0 turns the limit off */
  RATE_LIMIT_CONSOLE_SIGN_INS: z.coerce.number().int().min(0).default(defaultRateLimits.consoleSignInsPerMinute),
  /** hot wallets a partner may register on one chain (bounds GET /v1/hot-wallets too); more is 422 too_many_hot_wallets */
  HOT_WALLETS_MAX_PER_CHAIN: z.coerce.number().int().min(1).max(10_000).default(100),
  /** a connection gets this long to send a request's headers: slow-loris clients are cut (408) */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(10_000),
  /** a request gets this long to arrive whole, body included (at most 64 KiB) */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /** an idle keep-alive connection is closed after this; above the 60 s idle timeout of common load balancers, so they close first */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(65_000),
  /** Postgres connections of Prisma (reads, registrations) */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(5),
  /** Postgres connections of the POST /v1/sweeps insert */
  SWEEP_INSERT_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /** GET /v1/balance: a chain whose node takes longer for the balance shows chain_unavailable */
  BALANCE_RPC_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(3_000),
  /** local development only: PUT /v1/webhook accepts private and loopback hosts and http: URLs (the dispatcher's flag of the same name lets it deliver there) */
  WEBHOOK_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false").transform((value) => value === "true"),
  WEBHOOK_ALLOW_HTTP: z.enum(["true", "false"]).default("false").transform((value) => value === "true"),
  /**
   * Gateway processes on this machine: above 1, a primary runs that many workers sharing PORT (Node's
   * cluster), each with its own management port, METRICS_PORT + its number (1…N); the primary's is METRICS_PORT
   */
  GATEWAY_WORKERS: z.coerce.number().int().min(1).max(32).default(1),
});

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

/** The gateway's variables and every chain's of its environment (loadChainConfigs): the API lists them all. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadWithChains(() => loadConfig(gatewayEnv, env), () => undefined, env);
  return { ...config, balanceCacheMs: balanceCacheTtls(config.chains, env) };
}
