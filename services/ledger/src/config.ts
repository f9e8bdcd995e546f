import { loadWithChains } from "@sweep/chains";
import { loadConfig } from "@sweep/common";
import { workerEnv } from "@sweep/worker";
import { z } from "zod";

export const ledgerEnv = workerEnv(8083).extend({
  /** the pause between a chain's reconciliation rounds; unset, the chain's block time (BLOCK_TIME_MS_<chain_id>), at least 1 s */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).optional(),
  /** how often every gas wallet is reconciled, with activity of ours or not (an outside top-up is seen then) */
  RECONCILE_FULL_PASS_MS: z.coerce.number().int().min(10).max(86_400_000).default(600_000),
  /** how often fees due are withdrawn to the treasury (daily); 0 turns the schedule off. At most what a Node timer holds, about 24.8 days. */
  WITHDRAW_INTERVAL_MS: z.coerce.number().int().min(0).max(2_147_483_647).default(86_400_000),
});
/** The ledger's variables and its chains' (loadChainConfigs): it settles every chain of its environment. */
export function loadLedgerConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadWithChains(() => loadConfig(ledgerEnv, env), () => undefined, env);
}

export type Config = ReturnType<typeof loadLedgerConfig>;
