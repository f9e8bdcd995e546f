/** Mined deep enough: `confirmations` counts the receipt's own block (1 = included), as ethers does. */
export function isFinal(receiptBlock: number, head: number, confirmations: number): boolean {
  return head - receiptBlock + 1 >= Math.max(1, confirmations);
}

/** A transaction not mined this long after it went out (or was stored, when no node took it yet) is replaced. */
export function isStuck(sentAt: Date, now: Date, replaceAfterMs: number): boolean {
  return now.getTime() - sentAt.getTime() >= replaceAfterMs;
}

/** What the receipts of a nonce's stored transactions say of it, beside the chain's count at the confirmation depth. */
export type NonceState = "mined" | "taken" | "open" | "unknown";

/**
 * A receipt of ours: `mined`. None, while the chain counts past the nonce at the confirmation
 * depth: another transaction took it (`taken`), but only when the receipts came from a node that
 * had reached the block the count was read at. Behind a load-balanced endpoint a backend that lags
 * answers null for a transaction a fresher one counted, and a nonce whose transaction was mined must
 * never be given up: that answer decides nothing (`unknown`, asked again next round). Otherwise the
 * nonce is `open`: nothing took it at depth, and ours may yet be mined there.
 */
export function nonceState(input: { nonce: bigint; mined: boolean; countAtDepth: bigint; countedAt: number; receiptsHead: number }): NonceState {
  if (input.mined) return "mined";
  if (input.countAtDepth <= input.nonce) return "open";
  return input.receiptsHead >= input.countedAt ? "taken" : "unknown";
}

/** The block a gas wallet's nonce count at the confirmation depth is read at: the head is the first confirmation. */
export function depthBlock(head: number, confirmations: number): number {
  return Math.max(0, head - Math.max(1, confirmations) + 1);
}
