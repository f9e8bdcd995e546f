import { loadConfig, workerEnv } from "@sweep/common";
import { z } from "zod";

export const ledgerEnv = workerEnv(8083).extend({
  /** how often each chain's gas wallet balances are reconciled with the ledger */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(2_000),
});
export type Config = z.infer<typeof ledgerEnv>;
export const loadLedgerConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(ledgerEnv, env);
