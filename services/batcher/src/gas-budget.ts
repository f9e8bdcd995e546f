/**
 * Gas a batch plans for, as upper bounds of the gross gas (before refunds), which is what the
 * transaction's gas limit must cover. Measured per item with `pnpm bench` on anvil and the
 * devnet USDT: about 37,000 gross for an item carrying an authorization (25,000 of it the
 * authorization), 11,650 for a repeat token item and 12,350 for a native one; the first item of
 * a token pays its cold access on top, and an item of a token marked fee-on-transfer about 1,700
 * for its two balance reads.
 */
export const ITEM_GAS_WITH_AUTHORIZATION = 60_000n;
export const ITEM_GAS = 30_000n;
/**
 * Per transaction: the 21,000 base, and the gas SweepDelegate requires to be left before every
 * item (ITEM_GAS_NEEDED = 300,000 + 300,000 / 63 + 10,000, or it reverts with BatchGasTooLow).
 */
export const BATCH_BASE_GAS = 21_000n + 315_000n;
/**
 * A revocation batch, a plain transaction of the gas wallet to itself: the 21,000 base, and per
 * authorization the 25,000 EIP-7702 charges up front (12,500 of it comes back for an existing
 * account, which a delegated one is, but the gas limit must cover it first).
 */
export const REVOCATION_BASE_GAS = 21_000n;
export const REVOCATION_ITEM_GAS = 25_000n;
/** EIP-7825 (Osaka) caps one transaction's gas limit on public chains. */
export const TRANSACTION_GAS_CAP = 1n << 24n;

export function itemGas(withAuthorization: boolean): bigint {
  return withAuthorization ? ITEM_GAS_WITH_AUTHORIZATION : ITEM_GAS;
}

/**
 * How many of these items, in order, fit a batch's gas budget (at least one) when each is planned
 * at the most it can cost: an item with an authorization as one that carries it. What a claim
 * reads of its due sweeps before it knows their addresses' state: the batch planned from them is
 * never fuller than this, so nothing read is left for the next claim to read again.
 */
export function fittingItems(withAuthorization: readonly boolean[], gasBudget: bigint): number {
  let gas = BATCH_BASE_GAS;
  let count = 0;
  for (const carries of withAuthorization) {
    const cost = itemGas(carries);
    if (count > 0 && gas + cost > gasBudget) break;
    gas += cost;
    count++;
  }
  return count;
}

/**
 * The gas one batch may plan for: the latest block's gas limit, never above the transaction
 * cap, times the margin the sender needs for the headroom it adds to its estimate.
 */
export function batchGasBudget(blockGasLimit: bigint, marginBps: number): bigint {
  const limit = blockGasLimit < TRANSACTION_GAS_CAP ? blockGasLimit : TRANSACTION_GAS_CAP;
  return (limit * BigInt(marginBps)) / 10_000n;
}

/**
 * The gas one batch may plan for under the chain's fee cap (`TX_FEE_CAP_<id>`: gas limit × max
 * fee at most the cap, or nodes refuse it): the sender offers at least twice the base fee of the
 * block read, so the cap over that is the most gas its limit may reach, times the margin as above.
 * The tip is not known here; the chain-sender checks the exact figure and sends less when it is
 * over. Null when the base fee is zero (no bound).
 */
export function feeCapGasBudget(txFeeCap: bigint, baseFee: bigint, marginBps: number): bigint | null {
  if (baseFee <= 0n) return null;
  return (txFeeCap / (baseFee * 2n) * BigInt(marginBps)) / 10_000n;
}

/** The smaller of the block's budget and the fee cap's. */
export function plannedGasBudget(block: { gasLimit: bigint; baseFee: bigint }, txFeeCap: bigint, marginBps: number): bigint {
  const byBlock = batchGasBudget(block.gasLimit, marginBps);
  const byCap = feeCapGasBudget(txFeeCap, block.baseFee, marginBps);
  return byCap !== null && byCap < byBlock ? byCap : byBlock;
}
