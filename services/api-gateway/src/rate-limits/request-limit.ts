import type { Logger } from "@sweep/common";
import { rateLimitedTotal, rateLimiterErrors } from "@sweep/metrics";
import type Redis from "ioredis";
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/** The metric label and Redis key space of a limit. */
export type LimitName = "address" | "key" | "webhook_test" | "console_sign_in";

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface LimitSettings {
  name: LimitName;
  /** requests per window; 0 turns the limit off */
  points: number;
  windowSeconds: number;
  /** requests allowed over `points` within a longer window, for bursts */
  burst?: { points: number; windowSeconds: number };
  /** prefixes the Redis keys, so test runs sharing a Redis count apart */
  keyPrefix: string;
}

/** Whole seconds for Retry-After, never 0: a client told to retry at once would come straight back. */
export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/** How often a Redis outage is logged per limit, so a flood does not become a flood of log lines. */
const FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * A limit counted in Redis, shared by every gateway replica. When Redis cannot be reached it lets
 * the request through (logged, counted): an outage of a cache must not refuse every partner.
 */
export class RequestLimit {
  private readonly limiter: RateLimiterRedis | BurstyRateLimiter | null;
  private lastFailureLog = 0;

  constructor(
    redis: Redis,
    private readonly settings: LimitSettings,
    private readonly logger: Logger,
  ) {
    const limiter = (points: number, duration: number, space: string) =>
      // rejectIfRedisNotReady: while ioredis reconnects it would queue the command; failing at once keeps latency.
      new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: `${settings.keyPrefix}:${space}`, rejectIfRedisNotReady: true });
    const main = settings.points > 0 ? limiter(settings.points, settings.windowSeconds, settings.name) : null;
    this.limiter =
      main && settings.burst && settings.burst.points > 0
        ? new BurstyRateLimiter(main, limiter(settings.burst.points, settings.burst.windowSeconds, `${settings.name}-burst`))
        : main;
  }

  async take(key: string): Promise<LimitVerdict> {
    if (!this.limiter) return { allowed: true };
    try {
      await this.limiter.consume(key);
      return { allowed: true };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        rateLimitedTotal.inc({ limit: this.settings.name });
        return { allowed: false, retryAfterSeconds: retryAfterSeconds(err.msBeforeNext) };
      }
      this.failedOpen(err);
      return { allowed: true };
    }
  }

  private failedOpen(err: unknown): void {
    rateLimiterErrors.inc({ limit: this.settings.name });
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    this.logger.warn("rate limit not checked: Redis failed, request let through", { limit: this.settings.name, err: err instanceof Error ? err.message : String(err) });
  }
}
