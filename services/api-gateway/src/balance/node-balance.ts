/** The part of a chain's provider GET /v1/balance uses. */
export interface BalanceNode {
  getBalance(address: string, blockTag: "latest"): Promise<bigint>;
}

/**
 * The address's balance at the node's latest block. Rejects when the node fails or takes longer
 * than `timeoutMs`: a node that hangs must not hold the whole answer.
 */
export async function readNodeBalance(node: BalanceNode, address: string, timeoutMs: number): Promise<bigint> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([node.getBalance(address, "latest"), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
