import Redis from "ioredis";
import { z } from "zod";
import { environmentChainIds, keyCustodyEnv, requirePkcs11Variables } from "@sweep/chain";
import { baseEnv, DEFAULT_CONSOLE_URL, loadConfig, redisKeyPrefix } from "@sweep/common";
import { createDb, type Db } from "@sweep/db";
import { defineTopology, openDeadLetters, type DeadLetters } from "@sweep/messaging";
import type { Output } from "./output";

export const cliEnv = z
  .object({
    ...baseEnv,
    ...keyCustodyEnv,
    KEY_ENCRYPTION_KEY: z.string().optional(),
    KEY_ENCRYPTION_KEYS_OLD: z.string().optional(),
    /** where the gateway serves the console, for the sign-in links of `console-user create` */
    CONSOLE_URL: z.url({ protocol: /^https?$/ }).default(DEFAULT_CONSOLE_URL),
  })
  .superRefine(requirePkcs11Variables);
export type CliConfig = z.infer<typeof cliEnv>;

/** What a command works with; tests pass their own. */
export interface CommandContext {
  readonly config: CliConfig;
  readonly out: Output;
  readonly db: Db;
  redis(): Promise<Redis>;
  deadLetters(): Promise<DeadLetters>;
}

/**
 * The context of one sweepctl run. Configuration and connections are made on first use, so a
 * command needs only what it touches (`devnet info` runs without a database).
 */
export function openContext(out: Output): CommandContext & { close(): Promise<void> } {
  let config: CliConfig | undefined;
  let db: Db | undefined;
  let redis: Promise<Redis> | undefined;
  let deadLetters: Promise<DeadLetters> | undefined;
  const context = {
    out,
    get config() {
      return (config ??= loadConfig(cliEnv));
    },
    get db() {
      return (db ??= createDb(context.config.DATABASE_URL, { poolSize: 2 }));
    },
    redis() {
      return (redis ??= connectRedis(context.config.REDIS_URL, context.config.REDIS_KEY_PREFIX));
    },
    deadLetters() {
      const topology = defineTopology({ chainIds: environmentChainIds(context.config.SERVICE_ENV), prefix: context.config.AMQP_PREFIX });
      return (deadLetters ??= openDeadLetters(context.config.RABBITMQ_URL, topology).catch((err: Error) => {
        throw new Error(`RabbitMQ: ${err.message}`);
      }));
    },
    async close() {
      await Promise.allSettled([db?.$disconnect(), redis?.then((r) => r.disconnect()), deadLetters?.then((d) => d.close())]);
    },
  };
  return context;
}

/** A one-shot command should fail on an unreachable Redis, with the reason, not retry forever. */
export async function connectRedis(url: string, keyPrefix?: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    keyPrefix: redisKeyPrefix(keyPrefix),
  });
  // ioredis reports why in an error event and rejects connect() with a bare "Connection is closed".
  let cause: Error | undefined;
  redis.on("error", (err: Error) => (cause = err));
  try {
    await redis.connect();
  } catch (err) {
    throw new Error(`Redis: ${(cause ?? (err as Error)).message}`);
  }
  return redis;
}
