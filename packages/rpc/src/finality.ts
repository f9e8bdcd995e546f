/**
 * When a chain's outcomes are final: at a depth of confirmations (the head's own block counts as the
 * first, so 0 and 1 both mean "included"), or at the node's finalized block (ChainClient.finalBlock).
 * One rule for the chain-sender's settling and reorg watching and the ledger's reconciliation.
 */

/** The newest block final at `confirmations` deep; below 0 while the chain is shorter than that. */
export function finalAtDepth(head: number, confirmations: number): number {
  return head - Math.max(1, confirmations) + 1;
}

/** A receipt's block is final once the round's final block has reached it. */
export function isFinal(receiptBlock: number, finalBlock: number): boolean {
  return receiptBlock <= finalBlock;
}
