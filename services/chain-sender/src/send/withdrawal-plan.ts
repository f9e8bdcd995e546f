import { NATIVE_TRANSFER_GAS } from "@sweep/fees";

/**
 * What a withdrawal sends to the treasury: the fees due less the most its own gas can cost at this
 * max fee, so value and gas together never take more than the fees due. Null when nothing is left.
 */
export function withdrawalValue(feesDue: bigint, maxFeePerGas: bigint): bigint | null {
  const value = feesDue - NATIVE_TRANSFER_GAS * maxFeePerGas;
  return value > 0n ? value : null;
}

/**
 * What a drain sends: all the balance but the fees due, what the transactions in flight may still
 * cost and the most the drain's own gas can cost. Null when nothing is left.
 */
export function drainValue(wallet: { balance: bigint; feesDue: bigint; inFlightCost: bigint }, gasLimit: bigint, maxFeePerGas: bigint): bigint | null {
  const value = wallet.balance - wallet.feesDue - wallet.inFlightCost - gasLimit * maxFeePerGas;
  return value > 0n ? value : null;
}
