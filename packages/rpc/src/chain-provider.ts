import { JsonRpcProvider, Network, type JsonRpcPayload, type JsonRpcResult } from "ethers";
import { RpcEndpoints } from "./rpc-endpoints";

/**
 * An ethers provider over a chain's endpoints (with their failover), that trusts the configured
 * chain id instead of asking the node at every call (staticNetwork: a node that is down fails
 * calls instead of retrying network detection forever), and never answers from ethers' 250 ms
 * request cache: a stale code, nonce or balance read right after a transaction would send a wrong one.
 */
export class ChainProvider extends JsonRpcProvider {
  constructor(
    readonly endpoints: RpcEndpoints,
    private readonly pinnedTo?: number,
  ) {
    const network = Network.from(endpoints.chainId);
    // The URL ethers is given is never fetched (_send below replaces its transport): a placeholder, so no key can reach its errors.
    super("http://rpc-endpoints.invalid", network, { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 });
  }

  // ethers' JsonRpcProvider declares results only, though its base takes error answers too (and handles them): the cast restates the base's type.
  override _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    return this.endpoints.send(payload, this.pinnedTo) as Promise<JsonRpcResult[]>;
  }

  /**
   * A provider whose every request goes to the endpoint preferred now, without failover: reads that
   * must agree with each other (a nonce and the receipts it is compared with, a snapshot at a block)
   * come from one node's view or fail together.
   */
  pinned(): ChainProvider {
    return new ChainProvider(this.endpoints, this.endpoints.preferred());
  }
}

/** A provider over one URL, with the same transport as the services' (tests, the devnet, the CLI). */
export function createProvider(rpcUrl: string, chainId: number, timeoutMs = 10_000): ChainProvider {
  return new ChainProvider(new RpcEndpoints(chainId, [rpcUrl], { timeoutMs }));
}
