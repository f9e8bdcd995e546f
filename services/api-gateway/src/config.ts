import { baseEnv, loadConfig, port } from "@sweep/common";
import { z } from "zod";

export const gatewayEnv = z.object({
  ...baseEnv,
  PORT: port(8080),
  HOST: z.string().default("127.0.0.1"),
  /** the address partners use, written into the OpenAPI document's servers */
  PUBLIC_URL: z.url().optional(),
});

export type GatewayConfig = z.infer<typeof gatewayEnv>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(gatewayEnv, env);
