import { ChainClient, ChainProvider, RpcEndpoints, nodeMessage } from "@sweep/rpc";
import type { ChainConfig } from "@sweep/chains";

/** What one endpoint of RPC_URL_<chain_id> answered to eth_chainId: its chain, or why it did not answer. */
export interface EndpointProbe {
  /** its host: the only part of the URL that may be shown (a hosted provider's key is in the path or query) */
  endpoint: string;
  chainId: number | null;
  failure: string | null;
}

export interface PinnedChain {
  /** every endpoint, in the configured order */
  probes: EndpointProbe[];
  /** the endpoint the client is pinned to */
  endpoint: string;
  client: ChainClient;
}

/**
 * Asks each endpoint of the chain which chain it serves, and returns a client pinned to the first
 * that answered (the configured order is the operator's preference, as the services' failover
 * keeps it): a one-shot command's reads and its transaction then come from one node's view.
 * Throws when no endpoint answers.
 */
export async function pinFirstAnswering(config: Pick<ChainConfig, "chainId" | "confirmations" | "finality" | "rpcUrls" | "feeModel">, timeoutMs: number): Promise<PinnedChain> {
  const endpoints = new RpcEndpoints(config.chainId, config.rpcUrls, { timeoutMs });
  const probes: EndpointProbe[] = [];
  for (const [index, endpoint] of endpoints.labels.entries()) {
    try {
      const [answer] = await endpoints.send({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }, index);
      if (answer !== undefined && "result" in answer) probes.push({ endpoint, chainId: Number(BigInt(answer.result as string)), failure: null });
      else probes.push({ endpoint, chainId: null, failure: `eth_chainId answered ${answer === undefined ? "nothing" : nodeMessage(answer)}` });
    } catch (err) {
      // RpcTransportError's message names the endpoint by host only.
      probes.push({ endpoint, chainId: null, failure: err instanceof Error ? err.message : String(err) });
    }
  }
  const first = probes.findIndex((probe) => probe.chainId !== null);
  if (first === -1) throw new Error(`RPC_URL_${config.chainId}: no endpoint answers (${probes.map((p) => p.failure).join("; ")})`);
  const provider = new ChainProvider(endpoints, first);
  return { probes, endpoint: probes[first]!.endpoint, client: new ChainClient({ chainId: config.chainId, confirmations: config.confirmations, finality: config.finality, provider, chargesL1DataFee: config.feeModel === "op-stack" }) };
}
