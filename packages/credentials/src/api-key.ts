import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Environment } from "@sweep/common";

export const apiKeyPrefix: Record<Environment, string> = { testnet: "svc_test_", mainnet: "svc_live_" };

/** A new API key: the environment's prefix and 32 random bytes (base64url). Only its hash is stored. */
export function generateApiKey(environment: Environment): string {
  return apiKeyPrefix[environment] + randomBytes(32).toString("base64url");
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The environment a key claims by its prefix, or null for anything that is not a key of ours. */
export function apiKeyEnvironment(key: string): Environment | null {
  if (key.startsWith(apiKeyPrefix.testnet)) return "testnet";
  if (key.startsWith(apiKeyPrefix.mainnet)) return "mainnet";
  return null;
}

/**
 * What follows the prefix in a key generateApiKey makes: 32 bytes as unpadded base64url, 43
 * characters, the last carrying 4 bits and two zero bits (so only 16 letters can end a key).
 * Keys carry no checksum; this shape is what can be checked without a look-up.
 */
const KEY_BODY = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** Whether the key has the shape of one generateApiKey makes: a made-up key is refused without a look-up. */
export function isWellFormedApiKey(key: string): boolean {
  const environment = apiKeyEnvironment(key);
  return environment !== null && KEY_BODY.test(key.slice(apiKeyPrefix[environment].length));
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What people see of a key: its prefix and first characters. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, key.indexOf("_", 4) + 1 + 6);
}
