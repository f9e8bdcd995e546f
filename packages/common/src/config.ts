import { z } from "zod";

/** A configuration that cannot start a service; its message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/**
 * Validates environment variables against a zod object schema whose keys are the variable names.
 * Empty strings count as unset, so `FOO=` falls back to the default like an absent variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== "") input[key] = value;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    return input[name] === undefined ? `${name} is required` : `${name} ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Environment variables every service understands, with the local defaults of the design card. */
export const baseEnv = {
  SERVICE_ENV: z.enum(["testnet", "mainnet"]).default("testnet"),
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default("postgresql://postgres@127.0.0.1:5432/sweep"),
  RABBITMQ_URL: z.url({ protocol: /^amqps?$/ }).default("amqp://guest:guest@127.0.0.1:5672"),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default("redis://127.0.0.1:6379"),
  /** prefixes every Redis key (rate limits, API-key cache): several environments or test stacks on one Redis */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9:_-]*$/, "must be letters, digits, ':', '_' and '-'").optional(),
  /** prefixes every exchange and queue name: several suites (or test runs) on one broker */
  AMQP_PREFIX: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be lowercase letters, digits and dashes").optional(),
};

/** ioredis's `keyPrefix` for REDIS_KEY_PREFIX: the prefix and a colon before every key a command names. */
export const redisKeyPrefix = (prefix: string | undefined): string => (prefix ? `${prefix}:` : "");

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** A comma-separated list of chain ids, e.g. `CHAINS=11155111,97`. */
export const chainList = z
  .string()
  .regex(/^\d+(,\d+)*$/, "must be a comma-separated list of chain ids")
  .transform((s) => s.split(",").map(Number));

export type Environment = z.infer<typeof baseEnv.SERVICE_ENV>;

/**
 * How a reader of variables meets a malformed one: by default it throws (the message names the
 * variable); loadChainConfigs passes one that notes the problem and reads on, to name them all.
 */
export type VariableCheck = <T>(read: () => T) => T | undefined;

/** A VariableCheck that notes each problem in `problems` and reads on (undefined for the bad variable). */
export function collectingProblems(problems: string[]): VariableCheck {
  return <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
      return undefined;
    }
  };
}
