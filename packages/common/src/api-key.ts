import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Environment } from "./config";

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
