import type { Logger } from "@sweep/common";
import type Redis from "ioredis";
import { RequestLimit } from "./request-limit";

/** The gateway's rate limits; 0 turns one off. */
export interface RateLimitSettings {
  /** requests per second from one client address (an IPv6 /64), before the key is checked */
  perAddressPerSecond: number;
  /** requests per second with one API key */
  perKeyPerSecond: number;
  /** requests a key may make over its rate per 10 s window (fixed windows, counted in Redis) */
  perKeyBurst: number;
  /** POST /v1/webhook/test per partner per minute: each one is an event recorded and delivered */
  webhookTestsPerMinute: number;
  /** console sign-ins (password or link) per client address per minute: each costs a slow hash */
  consoleSignInsPerMinute: number;
  /** Redis key prefix */
  keyPrefix: string;
}

/** Twice the aim's 1,000 sweeps a second per key and more per address (several keys behind one NAT): only floods hit them. */
export const defaultRateLimits: RateLimitSettings = {
  perAddressPerSecond: 5_000,
  perKeyPerSecond: 2_000,
  perKeyBurst: 2_000,
  webhookTestsPerMinute: 10,
  consoleSignInsPerMinute: 20,
  keyPrefix: "ratelimit",
};

export const BURST_WINDOW_SECONDS = 10;

/** The limits the gateway applies, over one Redis. */
export function gatewayLimits(redis: Redis, settings: RateLimitSettings, logger: Logger) {
  const { keyPrefix } = settings;
  return {
    perAddress: new RequestLimit(redis, { name: "address", points: settings.perAddressPerSecond, windowSeconds: 1, keyPrefix }, logger),
    perKey: new RequestLimit(
      redis,
      { name: "key", points: settings.perKeyPerSecond, windowSeconds: 1, burst: { points: settings.perKeyBurst, windowSeconds: BURST_WINDOW_SECONDS }, keyPrefix },
      logger,
    ),
    webhookTests: new RequestLimit(redis, { name: "webhook_test", points: settings.webhookTestsPerMinute, windowSeconds: 60, keyPrefix }, logger),
    consoleSignIns: new RequestLimit(redis, { name: "console_sign_in", points: settings.consoleSignInsPerMinute, windowSeconds: 60, keyPrefix }, logger),
  };
}
