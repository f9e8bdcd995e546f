import { NATIVE_TRANSFER_GAS } from "@sweep/chain";

/**
 * What a withdrawal sends to the treasury: the fees due less the most its own gas can cost at this
 * max fee, so value and gas together never take more than the fees due. Null when nothing is left.
 */
export function withdrawalValue(feesDue: bigint, maxFeePerGas: bigint): bigint | null {
  const value = feesDue - NATIVE_TRANSFER_GAS * maxFeePerGas;
  return value > 0n ? value : null;
}
