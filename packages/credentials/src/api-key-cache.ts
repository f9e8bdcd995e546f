/**
 * The api-gateway caches the look-up of an API key (partner, enabled, revoked) in Redis under the
 * key's hash. Whatever changes one of those answers (disabling a partner, revoking a key) must drop
 * the cached entries, so the format lives here, in one place, for the gateway and `sweepctl`.
 */
export function apiKeyCacheKey(hash: string): string {
  return `apikey:${hash}`;
}

/** What invalidation needs of a Redis client (ioredis fits); @sweep/credentials depends on none. */
export interface RedisKeyDeleter {
  del(...keys: string[]): Promise<number>;
}

/** Drops the cached look-ups of these key hashes, so the next request reads the database. */
export async function invalidatePartnerKeys(redis: RedisKeyDeleter, hashes: readonly string[]): Promise<void> {
  // DEL with no key is an error in Redis.
  if (hashes.length > 0) await redis.del(...hashes.map(apiKeyCacheKey));
}
