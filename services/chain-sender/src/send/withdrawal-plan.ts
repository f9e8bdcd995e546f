/**
 * What a withdrawal sends to the treasury: the fees due less the most its own gas can cost (its gas
 * limit at this max fee) and its L1 data fee reserve (OP-stack chains; 0 elsewhere), so value and
 * costs together never take more than the fees due. Null when nothing is left.
 */
export function withdrawalValue(feesDue: bigint, gasLimit: bigint, maxFeePerGas: bigint, l1Reserve: bigint): bigint | null {
  const value = feesDue - gasLimit * maxFeePerGas - l1Reserve;
  return value > 0n ? value : null;
}

/**
 * What a drain sends: all the balance but the fees due, what the transactions in flight may still
 * cost, and the most the drain's own gas and L1 data fee (its reserve) can cost. Null when nothing is left.
 */
export function drainValue(wallet: { balance: bigint; feesDue: bigint; inFlightCost: bigint }, gasLimit: bigint, maxFeePerGas: bigint, l1Reserve: bigint): bigint | null {
  const value = wallet.balance - wallet.feesDue - wallet.inFlightCost - gasLimit * maxFeePerGas - l1Reserve;
  return value > 0n ? value : null;
}
