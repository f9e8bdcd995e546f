import { loadConfig, perChainWorkerEnv } from "@sweep/common";
import type { z } from "zod";

export const batcherEnv = perChainWorkerEnv(8081);
export type Config = z.infer<typeof batcherEnv>;
export const loadBatcherConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(batcherEnv, env);
