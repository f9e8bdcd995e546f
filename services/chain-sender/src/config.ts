import { keyCustodyEnv, parseKek, pkcs11ConfigOf, requirePkcs11Variables } from "@sweep/key-custody";
import { loadWithChains } from "@sweep/chains";
import { loadConfig } from "@sweep/common";
import { perChainWorkerEnv } from "@sweep/worker";
import { z } from "zod";

const isKek = (value: string) => {
  try {
    parseKek(value);
    return true;
  } catch {
    return false;
  }
};
const kekMessage = "must be 32 bytes, as 64 hex characters or base64";

const ms = (fallback: number, min = 1) => z.coerce.number().int().min(min).max(3_600_000).default(fallback);

export const chainSenderEnv = perChainWorkerEnv(8082).extend({
  ...keyCustodyEnv,
  /** the key-encryption key the gas wallet keys are sealed under (32 bytes, hex or base64); testnet may run without */
  KEY_ENCRYPTION_KEY: z.string().refine(isKek, kekMessage).optional(),
  /** earlier key-encryption keys, comma-separated, still accepted for decrypting */
  KEY_ENCRYPTION_KEYS_OLD: z
    .string()
    .refine((value) => value.split(",").filter(Boolean).every(isKek), `each ${kekMessage}`)
    .optional(),
  // The watcher's rounds, head polling, replacement and drop thresholds come from each chain's block time and thresholds in
  // blocks (BLOCK_TIME_MS_, REPLACE_AFTER_BLOCKS_, DROP_AFTER_BLOCKS_<chain_id>: @sweep/chains' registry).
  /** a nonce missing below our in-flight transactions is filled with a self-transfer once the gap lasted this long */
  NONCE_GAP_GRACE_MS: ms(10_000, 0),
  /** one JSON-RPC call longer than this counts as chain_unavailable */
  RPC_TIMEOUT_MS: ms(10_000, 100),
  /** headroom on eth_estimateGas, basis points (2000 = +20%), never beyond the block gas limit */
  GAS_LIMIT_MARGIN_BPS: z.coerce.number().int().min(0).max(10_000).default(2_000),
  /**
   * how often a standby tries to take a chain's leader lease, and the leader checks the connection holding it; at most
   * 10 s, so a leader cut off from the database gives up well before the server frees its lock (leader-lease.ts)
   */
  LEADER_POLL_MS: z.coerce.number().int().min(10).max(10_000).default(1_000),
});

/** The chain-sender's variables and its chains' (loadChainConfigs: nodes, confirmations, factory, treasury), checked at start. */
export function loadChainSenderConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadWithChains(() => loadConfig(chainSenderEnv.superRefine(requirePkcs11Variables), env), (c) => c.CHAINS, env);
  return { ...config, pkcs11: pkcs11ConfigOf(config) };
}

export type Config = ReturnType<typeof loadChainSenderConfig>;
