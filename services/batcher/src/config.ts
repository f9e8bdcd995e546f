import { loadWithChains } from "@sweep/chains";
import { loadConfig } from "@sweep/common";
import { perChainWorkerEnv } from "@sweep/worker";
import { z } from "zod";

const ms = (fallback: number, min = 0) => z.coerce.number().int().min(min).max(3_600_000).default(fallback);

export const batcherEnv = perChainWorkerEnv(8081).extend({
  /** a hot wallet's batch is claimed this long after the last sweep arrived (debounce)… */
  BATCH_WINDOW_MS: ms(150),
  /** …but never later than this after the first one (this wins over a longer BATCH_WINDOW_MS) */
  BATCH_WINDOW_MAX_MS: ms(600),
  /** how often to look for due sweeps and revocations no message announced (lost messages, retry pauses that ended) */
  POLL_INTERVAL_MS: ms(1_000, 10),
  /** share of the chain's gas limit a batch may plan for, basis points: the sender adds headroom to its estimate */
  BATCH_GAS_MARGIN_BPS: z.coerce.number().int().min(1).max(10_000).default(8_000),
  /** sent batches of one hot wallet not yet settled at most; beyond, sweeps wait and the next batch grows */
  BATCH_MAX_SENT: z.coerce.number().int().min(1).max(100).default(4),
  /**
   * a hot wallet's next round reads its sweeps on chain while the batch before is being prepared, and
   * claims once that is sent, if it is sent within this long after its claim (0: no read-ahead)
   */
  BATCH_READ_AHEAD_MS: ms(3_000),
  /** queued sweeps one claim considers at most (about 430 items fit under the 2^24 cap); the rest wait for the next batch */
  BATCH_MAX_SWEEPS: z.coerce.number().int().min(1).max(10_000).default(500),
  /** queued revocations of one gas wallet and chain one claim considers at most (about 530 authorizations fit under the 2^24 cap) */
  BATCH_MAX_REVOCATIONS: z.coerce.number().int().min(1).max(10_000).default(500),
  /** messages handled at once per chain queue: a window holds its messages until the claim, so keep it above a burst */
  BATCHER_PREFETCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /** calls per JSON-RPC batch request when a claim reads its addresses (public nodes accept 50) */
  CHAIN_READ_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(50),
  /** JSON-RPC batch requests under way at once per claim */
  CHAIN_READ_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(8),
});

/** The batcher's variables and its chains' (loadChainConfigs), checked at start. */
export function loadBatcherConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadWithChains(() => loadConfig(batcherEnv, env), (config) => config.CHAINS, env);
}

export type Config = ReturnType<typeof loadBatcherConfig>;
