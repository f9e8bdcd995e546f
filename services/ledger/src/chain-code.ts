import type { ServedChain } from "@sweep/chains";

/**
 * Code checks against the served chains' nodes: a delegate is deployed when its address has code
 * at the deployment's block. Read at that block, not "latest": a load-balanced endpoint's backend
 * behind the head would show no code yet (a lagging node answers "header not found" instead).
 */
export function codeCheck(chains: readonly Pick<ServedChain, "chainId" | "provider">[]): (chainId: number, address: string, blockNumber: number) => Promise<boolean> {
  const providers = new Map(chains.map((chain) => [chain.chainId, chain.provider]));
  return async (chainId, address, blockNumber) => {
    const provider = providers.get(chainId);
    if (!provider) throw new Error(`chain ${chainId} is not served by this ledger`);
    return (await provider.getCode(address, blockNumber)) !== "0x";
  };
}
