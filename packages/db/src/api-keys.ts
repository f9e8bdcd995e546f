import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@sweep/credentials";
import type { Environment } from "@sweep/common";
import type { Db } from "./client";

/** A key as it was issued: `key` is the only time the whole key exists outside the partner. */
export interface IssuedApiKey {
  id: string;
  key: string;
  prefix: string;
  hash: string;
  createdAt: Date;
}

/** Another API key for the partner (`sweepctl key create`, the console); only its hash and display prefix are stored. */
export async function issueApiKey(db: Db, partnerId: string, environment: Environment): Promise<IssuedApiKey> {
  const key = generateApiKey(environment);
  const row = await db.apiKey.create({ data: { partnerId, hash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) } });
  return { id: row.id, key, prefix: row.prefix, hash: row.hash, createdAt: row.createdAt };
}

/**
 * Revokes the key with this id; false when it was revoked before. Guarded by revokedAt in the same
 * UPDATE, so two revocations cannot both claim it. The caller drops the key's cached look-up
 * (invalidatePartnerKeys) in either case: a retry after Redis failed must still drop it.
 */
export async function revokeApiKey(db: Db, keyId: string, revokedAt: Date): Promise<boolean> {
  const { count } = await db.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt } });
  return count === 1;
}
