import { ITEM_GAS_NEEDED } from "@sweep/contracts";

/** EIP-7825 (Osaka) caps one transaction's gas limit on public chains. */
export const TRANSACTION_GAS_CAP = 1n << 24n;

/** Headroom over what the transaction needs, basis points, within the block and the cap. */
function withMargin(needed: bigint, marginBps: number, blockGasLimit: bigint): bigint {
  const limit = (needed * BigInt(10_000 + marginBps)) / 10_000n;
  const ceiling = blockGasLimit < TRANSACTION_GAS_CAP ? blockGasLimit : TRANSACTION_GAS_CAP;
  return limit < ceiling ? limit : ceiling;
}

/** From eth_estimateGas: the least gas limit the node found to work. */
export function gasLimitFromEstimate(estimate: bigint, marginBps: number, blockGasLimit: bigint): bigint {
  return withMargin(estimate, marginBps, blockGasLimit);
}

/**
 * From a simulation's gasUsed, without eth_estimateGas's search (which costs a node tens of runs
 * of the batch): gasUsed is after refunds, and refunds are at most a fifth of the gross (EIP-3529),
 * so the gross is at most 5/4 of it; the delegate wants ITEM_GAS_NEEDED left before its last
 * item on top.
 */
export function gasLimitFromSimulation(gasUsed: bigint, marginBps: number, blockGasLimit: bigint): bigint {
  return withMargin((gasUsed * 5n + 3n) / 4n + ITEM_GAS_NEEDED, marginBps, blockGasLimit);
}
