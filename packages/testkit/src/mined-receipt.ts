import type { JsonRpcProvider, TransactionReceipt } from "ethers";

/**
 * The receipt of a transaction once the node has mined it, asked until it is there. Not ethers'
 * waitForTransaction: it reads the head before the receipt, and when the head it read is older than
 * the receipt's block it waits for another block, which a node mining one block per transaction
 * (anvil's automine) never makes once nothing else is sent: a loaded machine hung a test on it.
 */
export async function minedReceipt(provider: JsonRpcProvider, hash: string, timeoutMs = 30_000): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt) return receipt;
    if (Date.now() > deadline) throw new Error(`transaction ${hash} was not mined within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
