import { JsonRpcProvider, Network, type JsonRpcPayload, type JsonRpcResult } from "ethers";
import { RpcEndpoints, RpcTransportError } from "./rpc-endpoints";

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

  /**
   * Reads that must agree, all from one endpoint (`pinned`). When that endpoint fails them on
   * transport (a provider's quota refusal, a 429, a 5xx, no answer) and another is now preferred,
   * they are all read again there, once: a refusal of service says nothing about the chain, and the
   * other endpoint's view is as good as long as no read mixes the two.
   */
  async withOneView<T>(reads: (provider: ChainProvider) => Promise<T>): Promise<T> {
    const first = this.endpoints.preferred();
    try {
      return await reads(new ChainProvider(this.endpoints, first));
    } catch (err) {
      const next = this.endpoints.preferred();
      if (next === first || !failedOnTransport(err)) throw err;
      return reads(new ChainProvider(this.endpoints, next));
    }
  }
}

/** A provider over one URL, with the same transport as the services' (tests, the devnet, the CLI). */
export function createProvider(rpcUrl: string, chainId: number, timeoutMs = 10_000): ChainProvider {
  return new ChainProvider(new RpcEndpoints(chainId, [rpcUrl], { timeoutMs }));
}

/** Whether an error is (or was caused by, as a ChainCallError or an ethers error wraps it) an endpoint failing on transport. */
function failedOnTransport(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown; error?: unknown }).cause ?? (e as { error?: unknown }).error, depth++) {
    if (e instanceof RpcTransportError) return true;
  }
  return false;
}
