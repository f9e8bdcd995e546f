import { createHmac, timingSafeEqual } from "node:crypto";
import type { Environment } from "@sweep/common";

/** The testnet default: public, so it guards nothing but a stale format; never for real partners. */
export const DEVELOPMENT_CACHE_SECRET = "public-development-api-key-cache-secret";

export const MIN_CACHE_SECRET_LENGTH = 32;

/**
 * API_KEY_CACHE_SECRET, or on testnet the public development secret with a loud warning; required
 * on mainnet, as KEY_ENCRYPTION_KEY is: without it, anyone who can write to Redis mints a partner.
 */
export function resolveCacheSecret(env: { SERVICE_ENV: Environment; API_KEY_CACHE_SECRET?: string }, warn: (message: string) => void): string {
  if (env.API_KEY_CACHE_SECRET) return env.API_KEY_CACHE_SECRET;
  if (env.SERVICE_ENV !== "testnet") throw new Error("API_KEY_CACHE_SECRET is required on the mainnet environment");
  warn(
    "WARNING: API_KEY_CACHE_SECRET is not set; cached API key look-ups are signed with the public DEVELOPMENT secret, " +
      `so a write to Redis can pass for a partner. Set API_KEY_CACHE_SECRET (at least ${MIN_CACHE_SECRET_LENGTH} random characters) outside local development.`,
  );
  return DEVELOPMENT_CACHE_SECRET;
}

/**
 * Signs what is cached under a Redis key: `<mac>.<body>`, the mac an HMAC-SHA256 of the Redis key
 * and the body, so an entry is neither forged nor moved to another key's slot.
 */
export class CacheSeal {
  constructor(private readonly secret: string) {}

  seal(cacheKey: string, body: string): string {
    return `${this.mac(cacheKey, body)}.${body}`;
  }

  /** The body of an entry this process's secret signed for this key, else null. */
  open(cacheKey: string, value: string): string | null {
    const dot = value.indexOf(".");
    if (dot < 0) return null;
    const given = Buffer.from(value.slice(0, dot), "base64url");
    const body = value.slice(dot + 1);
    const expected = Buffer.from(this.mac(cacheKey, body), "base64url");
    return given.length === expected.length && timingSafeEqual(given, expected) ? body : null;
  }

  private mac(cacheKey: string, body: string): string {
    return createHmac("sha256", this.secret).update(cacheKey).update("\n").update(body).digest("base64url");
  }
}
