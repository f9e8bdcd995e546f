import { ChainClient, type ChainProvider } from "@sweep/rpc";

/** The node reads of a chain the reconciliation needs; a silent node fails them at the endpoints' timeout and only delays a round. */
export interface ChainReads {
  chainId: number;
  confirmations: number;
  head(): Promise<number>;
  /** the newest block final at `head` (ChainClient.finalBlock) */
  finalBlock(head: number): Promise<number>;
  /** the address's transaction count (its next nonce) after the block */
  nonceAt(address: string, block: number): Promise<bigint>;
  balanceAt(address: string, block: number): Promise<bigint>;
}

export function chainReads(chain: { chainId: number; confirmations: number; finality?: "depth" | "finalized"; provider: ChainProvider }): ChainReads {
  const client = new ChainClient(chain);
  return {
    chainId: chain.chainId,
    confirmations: chain.confirmations,
    head: () => client.headNumber(),
    finalBlock: (head) => client.finalBlock(head),
    nonceAt: (address, block) => client.nonceAt(address, block),
    balanceAt: (address, block) => client.balance(address, block),
  };
}
