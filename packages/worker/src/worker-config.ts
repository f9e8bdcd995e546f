import { z } from "zod";
import { baseEnv, chainList, port } from "@sweep/common";

/** Configuration of a service without a public API: the base, its health port, and optionally the chains it serves. */
export function workerEnv(healthPort: number) {
  return z.object({ ...baseEnv, HEALTH_PORT: port(healthPort), HOST: z.string().default("127.0.0.1") });
}

/** Per-chain services (batcher, chain-sender) also take CHAINS; absent means every chain of SERVICE_ENV. */
export function perChainWorkerEnv(healthPort: number) {
  return workerEnv(healthPort).extend({ CHAINS: chainList.optional() });
}
