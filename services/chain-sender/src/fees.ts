import type { FeeCeiling } from "@sweep/fees";

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

/**
 * A new transaction's fees: the suggested tip, and room for the base fee to double before it is
 * mined, each kept under the ceiling (the tip never above the max fee).
 */
export function initialFees(market: FeeMarket, ceiling: FeeCeiling): Fees {
  const maxFeePerGas = min(market.baseFee * 2n + min(market.tip, ceiling.maxPriorityFeePerGas), ceiling.maxFeePerGas);
  return { maxPriorityFeePerGas: min(market.tip, ceiling.maxPriorityFeePerGas, maxFeePerGas), maxFeePerGas };
}

/** At least 12.5% more (rounded up, at least 1 wei): nodes refuse a replacement with less than 10%. */
function raised(wei: bigint): bigint {
  const step = (wei + 7n) / 8n;
  return wei + (step > 0n ? step : 1n);
}

/**
 * Fees of a replacement: both fees raised by at least 12.5% over the transaction it replaces, and
 * never below what a new transaction would offer now, never above the ceiling. Null when the raise
 * the node demands would cross the ceiling: the transaction it would replace is kept as it is.
 */
export function bumpFees(previous: Fees, market: FeeMarket, ceiling: FeeCeiling): Fees | null {
  const needed = { maxFeePerGas: raised(previous.maxFeePerGas), maxPriorityFeePerGas: raised(previous.maxPriorityFeePerGas) };
  const current = initialFees(market, ceiling);
  const maxPriorityFeePerGas = max(needed.maxPriorityFeePerGas, current.maxPriorityFeePerGas);
  const wanted = max(needed.maxFeePerGas, current.maxFeePerGas, market.baseFee * 2n + maxPriorityFeePerGas);
  const maxFeePerGas = min(wanted, ceiling.maxFeePerGas);
  if (maxFeePerGas < needed.maxFeePerGas || maxPriorityFeePerGas > ceiling.maxPriorityFeePerGas || maxPriorityFeePerGas > maxFeePerGas) return null;
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

function min(first: bigint, ...rest: bigint[]): bigint {
  return rest.reduce((a, b) => (b < a ? b : a), first);
}
