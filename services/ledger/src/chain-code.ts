import type { ServedChain } from "@sweep/chain";

/** Code checks against the served chains' nodes: a delegate is deployed when its address has code. */
export function codeCheck(chains: readonly Pick<ServedChain, "chainId" | "provider">[]): (chainId: number, address: string) => Promise<boolean> {
  const providers = new Map(chains.map((chain) => [chain.chainId, chain.provider]));
  return async (chainId, address) => {
    const provider = providers.get(chainId);
    if (!provider) throw new Error(`chain ${chainId} is not served by this ledger`);
    return (await provider.getCode(address)) !== "0x";
  };
}
