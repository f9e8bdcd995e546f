/** EIP-1559 fees of a transaction, wei per gas. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the chain asks now: the latest block's base fee and the node's suggested tip. */
export interface FeeMarket {
  baseFee: bigint;
  tip: bigint;
}

/** A new transaction's fees: the suggested tip, and room for the base fee to double before it is mined. */
export function initialFees(market: FeeMarket): Fees {
  return { maxPriorityFeePerGas: market.tip, maxFeePerGas: market.baseFee * 2n + market.tip };
}

/** At least 12.5% more (rounded up, at least 1 wei): nodes refuse a replacement with less than 10%. */
function raised(wei: bigint): bigint {
  const step = (wei + 7n) / 8n;
  return wei + (step > 0n ? step : 1n);
}

/**
 * Fees of a replacement: both fees raised by at least 12.5% over the transaction it replaces, and
 * never below what a new transaction would offer now. No cap: a cap could leave a transaction
 * stuck for good when the base fee climbs above it.
 */
export function bumpFees(previous: Fees, market: FeeMarket): Fees {
  const current = initialFees(market);
  const maxPriorityFeePerGas = max(raised(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const maxFeePerGas = max(raised(previous.maxFeePerGas), current.maxFeePerGas, market.baseFee * 2n + maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The highest fees among transactions of one nonce: a replacement must outbid each of them. */
export function highestFees(fees: readonly Fees[]): Fees | null {
  if (fees.length === 0) return null;
  return fees.reduce((a, b) => ({ maxFeePerGas: max(a.maxFeePerGas, b.maxFeePerGas), maxPriorityFeePerGas: max(a.maxPriorityFeePerGas, b.maxPriorityFeePerGas) }));
}

function max(first: bigint, ...rest: bigint[]): bigint {
  return rest.reduce((a, b) => (b > a ? b : a), first);
}
