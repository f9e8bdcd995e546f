import { randomUUID } from "node:crypto";
import { apiKeyCacheKey, sameHash } from "@sweep/credentials";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type Redis from "ioredis";
import type { ApiKeyRecord } from "./api-key-verdict";
import { CacheSeal } from "./cache-seal";
import { LookupGate } from "./lookup-gate";

/** What the cache keeps for a key hash: the record, or that no such key exists. */
type CachedLookup = { found: true; record: ApiKeyRecord } | { found: false; hash: string };

/**
 * Writes `value` only while the key still holds this request's reservation. `sweepctl` drops the
 * key after it changed the database; if that happened while the database was being read, the
 * reservation is gone and the possibly stale answer is not cached.
 */
const SET_IF_RESERVED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end return nil`;

/** Reserves over an entry that did not hold (no valid MAC), unless it changed meanwhile. */
const RESERVE_OVER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'EX', 5) end return nil`;

const RESERVATION = "reserved:";

export interface ApiKeyLookupLimits {
  /** database reads at once for keys this process has not found before */
  concurrency: number;
  /** such reads waiting for one of those; beyond, LookupGateFull */
  maxWaiting: number;
}

export const defaultLookupLimits: ApiKeyLookupLimits = { concurrency: 2, maxWaiting: 100 };

/** Hashes remembered as found: enough for every partner's keys, bounded against a flood of real ones. */
const KNOWN_HASHES = 10_000;

/**
 * Looks up API keys by hash: Redis first, else the database, whose answer is cached for
 * `ttlSeconds`. The cache is only ever written from a database read made after a reservation,
 * so a revocation or a disabling (which drops the key) is never overwritten by an older answer.
 * When Redis fails, the database answers alone.
 *
 * A flood of made-up keys misses the cache every time (they never repeat): the database reads of
 * hashes this process never found go through a small gate, so they cannot take the pool that
 * partners' requests use; a key found once skips the gate.
 *
 * Entries carry a MAC under the server's secret (CacheSeal): one written to Redis by anyone else
 * is ignored, read again from the database and replaced, so a write to Redis cannot mint a partner.
 */
export class ApiKeyLookup {
  private readonly gate: LookupGate;
  private readonly known = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    private readonly logger: Logger,
    limits: ApiKeyLookupLimits,
    private readonly seal: CacheSeal,
  ) {
    this.gate = new LookupGate(limits.concurrency, limits.maxWaiting);
  }

  async find(hash: string): Promise<ApiKeyRecord | null> {
    const cacheKey = apiKeyCacheKey(hash);
    const cached = await this.cached(cacheKey);
    const reserved = cached?.startsWith(RESERVATION) ?? false;
    const lookup = cached === null || reserved ? null : this.parseCached(cacheKey, cached);
    // The cache is keyed by the hash already; compared again in constant time all the same.
    if (lookup && sameHash(lookup.found ? lookup.record.hash : lookup.hash, hash)) return lookup.found ? lookup.record : null;
    // Another request holding a reservation is reading the database: read it too, cache nothing.
    const reservation = cached === null ? await this.reserve(cacheKey) : reserved ? null : await this.reserve(cacheKey, cached);
    const record = this.known.has(hash) ? await this.fromDatabase(hash) : await this.gate.run(() => this.fromDatabase(hash));
    if (record) this.remember(hash);
    if (reservation) await this.store(cacheKey, reservation, record ? { found: true, record } : { found: false, hash });
    return record;
  }

  private remember(hash: string): void {
    if (this.known.has(hash)) return;
    // A Set iterates in insertion order: the oldest goes first.
    if (this.known.size >= KNOWN_HASHES) this.known.delete(this.known.values().next().value!);
    this.known.add(hash);
  }

  private async fromDatabase(hash: string): Promise<ApiKeyRecord | null> {
    const key = await this.db.apiKey.findUnique({
      where: { hash },
      select: { hash: true, revokedAt: true, partner: { select: { id: true, enabled: true, environment: true, gasWallet: { select: { address: true } } } } },
    });
    if (!key || !sameHash(key.hash, hash)) return null;
    return {
      hash: key.hash,
      partnerId: key.partner.id,
      revoked: key.revokedAt !== null,
      enabled: key.partner.enabled,
      environment: key.partner.environment,
      gasWallet: key.partner.gasWallet?.address ?? null,
    };
  }

  private async cached(cacheKey: string): Promise<string | null> {
    try {
      return await this.redis.get(cacheKey);
    } catch (err) {
      this.logger.warn("API key cache unavailable; reading the database", { error: (err as Error).message });
      return null;
    }
  }

  /** Reserves an empty slot, or one holding `over` (an entry that did not hold) while it still does. */
  private async reserve(cacheKey: string, over?: string): Promise<string | null> {
    const reservation = RESERVATION + randomUUID();
    try {
      // Short-lived: a request that dies holding it blocks caching only briefly.
      const answer = over === undefined ? await this.redis.set(cacheKey, reservation, "EX", 5, "NX") : await this.redis.eval(RESERVE_OVER, 1, cacheKey, over, reservation);
      return answer === "OK" ? reservation : null;
    } catch {
      return null;
    }
  }

  private async store(cacheKey: string, reservation: string, lookup: CachedLookup): Promise<void> {
    try {
      await this.redis.eval(SET_IF_RESERVED, 1, cacheKey, reservation, this.seal.seal(cacheKey, JSON.stringify(lookup)), this.ttlSeconds);
    } catch (err) {
      this.logger.warn("could not cache an API key look-up", { error: (err as Error).message });
    }
  }

  /** An entry this code did not write (another version, another secret, a hand edit) counts as a miss. */
  private parseCached(cacheKey: string, value: string): CachedLookup | null {
    const body = this.seal.open(cacheKey, value);
    if (body === null) {
      this.logger.warn("ignored a cached API key look-up without a valid MAC (written by another secret, or by hand)", { cacheKey });
      return null;
    }
    try {
      const lookup = JSON.parse(body) as CachedLookup;
      return typeof (lookup.found ? lookup.record?.hash : lookup.hash) === "string" ? lookup : null;
    } catch {
      return null;
    }
  }
}
