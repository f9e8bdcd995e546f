import { loadConfig, workerEnv } from "@sweep/common";
import type { z } from "zod";

export const ledgerEnv = workerEnv(8083);
export type Config = z.infer<typeof ledgerEnv>;
export const loadLedgerConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(ledgerEnv, env);
