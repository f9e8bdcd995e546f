import { apiKeyEnvironment } from "@sweep/credentials";
import type { Environment } from "@sweep/common";

/** What the API needs to know of a key; cached under the key's hash. */
export interface ApiKeyRecord {
  /** sha256 of the key, hex */
  hash: string;
  partnerId: string;
  revoked: boolean;
  enabled: boolean;
  environment: Environment;
  /** the partner's gas wallet address (EIP-55); null only for a partner created without one */
  gasWallet: string | null;
}

export interface AuthenticatedPartner {
  partnerId: string;
  gasWallet: string | null;
  /**
   * Names the caller in Redis for the per-key rate limit: the hash of the key the request came
   * with, or `console:<session id>` for a console session (whose requests carry no key).
   */
  limitKey: string;
}

export type KeyVerdict = { ok: true; partner: AuthenticatedPartner } | { ok: false; code: "unauthorized" | "partner_disabled"; message: string };

/** The key of an `Authorization: Bearer <key>` header (scheme in any case, RFC 9110), or null. */
export function bearerKey(header: string | undefined): string | null {
  const match = /^Bearer +([A-Za-z0-9_-]+) *$/i.exec(header ?? "");
  return match ? match[1]! : null;
}

/** Before any look-up: a key must claim this environment by its prefix. */
export function keyClaimsEnvironment(key: string, environment: Environment): boolean {
  return apiKeyEnvironment(key) === environment;
}

/** A revoked or unknown key is refused before a disabled partner is: a bad key learns nothing of the account. */
export function keyVerdict(record: ApiKeyRecord | null, environment: Environment): KeyVerdict {
  if (!record || record.revoked) return { ok: false, code: "unauthorized", message: "the API key is unknown or revoked" };
  if (record.environment !== environment) return { ok: false, code: "unauthorized", message: `the API key is not a key of the ${environment} API` };
  if (!record.enabled) return { ok: false, code: "partner_disabled", message: "the account is disabled" };
  return { ok: true, partner: { partnerId: record.partnerId, gasWallet: record.gasWallet, limitKey: record.hash } };
}
