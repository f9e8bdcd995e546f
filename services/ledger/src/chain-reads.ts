import type { ServedChain } from "@sweep/chain";

/** The node reads of a chain the reconciliation needs, each bounded in time so a silent node only delays a round. */
export interface ChainReads {
  chainId: number;
  confirmations: number;
  head(): Promise<number>;
  /** the address's transaction count (its next nonce) after the block */
  nonceAt(address: string, block: number): Promise<bigint>;
  balanceAt(address: string, block: number): Promise<bigint>;
}

const READ_TIMEOUT_MS = 10_000;

async function bounded<T>(what: string, read: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
  });
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function chainReads(chain: Pick<ServedChain, "chainId" | "confirmations" | "provider">): ChainReads {
  const { provider } = chain;
  return {
    chainId: chain.chainId,
    confirmations: chain.confirmations,
    head: () => bounded("eth_blockNumber", provider.getBlockNumber()),
    nonceAt: async (address, block) => BigInt(await bounded("eth_getTransactionCount", provider.getTransactionCount(address, block))),
    balanceAt: (address, block) => bounded("eth_getBalance", provider.getBalance(address, block)),
  };
}
