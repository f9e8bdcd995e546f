/** Mined deep enough: `confirmations` counts the receipt's own block (1 = included), as ethers does. */
export function isFinal(receiptBlock: number, head: number, confirmations: number): boolean {
  return head - receiptBlock + 1 >= Math.max(1, confirmations);
}

/** A transaction not mined this long after it went out (or was stored, when no node took it yet) is replaced. */
export function isStuck(sentAt: Date, now: Date, replaceAfterMs: number): boolean {
  return now.getTime() - sentAt.getTime() >= replaceAfterMs;
}

/**
 * Whether another transaction took a nonce none of our transactions has a receipt for: the chain
 * counts past it at the confirmation depth (read before our receipts were looked up).
 */
export function nonceTakenByOther(nonce: bigint, chainNonceAtDepth: bigint): boolean {
  return chainNonceAtDepth > nonce;
}
