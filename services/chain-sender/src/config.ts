import { loadConfig, perChainWorkerEnv } from "@sweep/common";
import type { z } from "zod";

export const chainSenderEnv = perChainWorkerEnv(8082);
export type Config = z.infer<typeof chainSenderEnv>;
export const loadChainSenderConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(chainSenderEnv, env);
