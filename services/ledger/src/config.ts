import { loadWithChains } from "@sweep/chain";
import { loadConfig, workerEnv } from "@sweep/common";
import { z } from "zod";

export const ledgerEnv = workerEnv(8083).extend({
  /** how often each chain's gas wallet balances are reconciled with the ledger */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(2_000),
  /** how often fees due are withdrawn to the treasury (daily); 0 turns the schedule off. At most what a Node timer holds, about 24.8 days. */
  WITHDRAW_INTERVAL_MS: z.coerce.number().int().min(0).max(2_147_483_647).default(86_400_000),
});
/** The ledger's variables and its chains' (loadChainConfigs): it settles every chain of its environment. */
export function loadLedgerConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadWithChains(() => loadConfig(ledgerEnv, env), () => undefined, env);
}

export type Config = ReturnType<typeof loadLedgerConfig>;
