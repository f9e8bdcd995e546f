import { loadConfig, workerEnv } from "@sweep/common";
import type { z } from "zod";

export const webhookDispatcherEnv = workerEnv(8084);
export type Config = z.infer<typeof webhookDispatcherEnv>;
export const loadWebhookDispatcherConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(webhookDispatcherEnv, env);
