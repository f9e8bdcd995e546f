/**
 * The nonce of a new transaction of a gas wallet: the stored next nonce, unless the chain already
 * counts further (a transaction sent from elsewhere); never one that has a stored transaction.
 */
export function chooseNonce(input: { nextNonce: bigint | null; chainPending: bigint; highestStored: bigint | null }): bigint {
  const candidates = [input.nextNonce ?? 0n, input.chainPending, input.highestStored === null ? 0n : input.highestStored + 1n];
  return candidates.reduce((a, b) => (b > a ? b : a));
}

/**
 * Nonces that block a gas wallet's in-flight transactions and that nothing will fill: below the
 * lowest in-flight nonce, from the chain's latest nonce, while the node holds nothing executable
 * (pending equals latest). Nonces with a settled transaction are left out (a stale read or a
 * reorg, not a gap).
 */
export function nonceGaps(input: { latest: bigint; pending: bigint; inFlight: readonly bigint[]; settled: readonly bigint[] }): bigint[] {
  if (input.inFlight.length === 0 || input.pending > input.latest) return [];
  const lowest = input.inFlight.reduce((a, b) => (b < a ? b : a));
  const gaps: bigint[] = [];
  for (let nonce = input.latest; nonce < lowest; nonce++) if (!input.settled.includes(nonce)) gaps.push(nonce);
  return gaps;
}
