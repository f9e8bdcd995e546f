import { redactRpcUrl } from "@sweep/rpc";
import type { Environment } from "@sweep/common";
import { chainEndpoints } from "./chains";

/** What `sweepctl devnet info --json` prints: where each chain is reached and its listed tokens. */
export interface DevnetInfo {
  chains: Array<{
    chain_id: number;
    rpc_url: string;
    tokens: Array<{ ticker: string; address: string; decimals: number }>;
  }>;
}

export function devnetInfo(environment: Environment, env: NodeJS.ProcessEnv = process.env): DevnetInfo {
  return {
    chains: chainEndpoints(environment, env).map(({ chain, rpcUrl, local }) => ({
      chain_id: chain.chainId,
      // A real node's URL carries its provider's key: only its host is printed.
      rpc_url: local ? rpcUrl : redactRpcUrl(rpcUrl),
      tokens: chain.tokens.map(({ ticker, address, decimals }) => ({ ticker, address, decimals })),
    })),
  };
}
