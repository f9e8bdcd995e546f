import { JsonRpcProvider, Network } from "ethers";
import type { Environment } from "@sweep/common";
import { devnetTokenAddress } from "./devnet-addresses";
import { chainRegistry, rpcUrlFor, type ChainInfo } from "./registry";

export interface ServedChain extends ChainInfo {
  rpcUrl: string;
  provider: JsonRpcProvider;
}

/**
 * A provider that trusts the configured chain id instead of asking the node at every call
 * (staticNetwork), so a node that is down fails calls instead of retrying network detection forever;
 * and that never answers from ethers' 250 ms request cache: a stale code, nonce or balance read
 * right after a transaction would send a wrong one.
 */
export function createProvider(rpcUrl: string, chainId: number): JsonRpcProvider {
  const network = Network.from(chainId);
  return new JsonRpcProvider(rpcUrl, network, { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 });
}

/**
 * The chains a process serves: those of its environment, narrowed to `only` (a service's CHAINS).
 * A chain id outside the environment is a configuration error.
 */
export function servedChains(environment: Environment, only: number[] | undefined, env: NodeJS.ProcessEnv = process.env): ServedChain[] {
  const registry = chainRegistry(environment, devnetTokenAddress, env);
  const unknown = (only ?? []).filter((id) => !registry.some((c) => c.chainId === id));
  if (unknown.length > 0) throw new Error(`CHAINS names ${unknown.join(", ")}, not a chain of the ${environment} environment`);
  return registry
    .filter((c) => only === undefined || only.includes(c.chainId))
    .map((c) => {
      const rpcUrl = rpcUrlFor(c, env);
      return { ...c, rpcUrl, provider: createProvider(rpcUrl, c.chainId) };
    });
}
