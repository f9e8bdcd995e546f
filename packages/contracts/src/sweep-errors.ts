import { sweepDelegateInterface } from "./sweep-delegate-abi";

export const SWEEP_ERRORS = ["Unauthorized", "NothingToSweep", "TokenTransferFailed", "NativeTransferFailed"] as const;
export type SweepError = (typeof SWEEP_ERRORS)[number];
/**
 * Why an item failed: a delegate error (Unauthorized when the deposit address does not delegate to
 * the batch's delegate, which then does not call it), or "reverted" for anything else (no error
 * selector, or a selector the delegate does not define).
 */
export type SweepFailureReason = SweepError | "reverted";

/** 4-byte selector (0x-hex, lower case) of each delegate error. */
export const SWEEP_ERROR_SELECTORS: Readonly<Record<SweepError, string>> = Object.fromEntries(
  SWEEP_ERRORS.map((name) => [name, sweepDelegateInterface.getError(name)!.selector]),
) as Record<SweepError, string>;

const errorBySelector = new Map<string, SweepError>(SWEEP_ERRORS.map((name) => [SWEEP_ERROR_SELECTORS[name], name]));

/** The whole batch reverts with this when its gas limit cannot give every item its allowance. */
export const BATCH_GAS_TOO_LOW_SELECTOR = sweepDelegateInterface.getError("BatchGasTooLow")!.selector;

/** The reason of a failed item from the selector in its SweepFailed event. */
export function sweepFailureReason(selector: string): SweepFailureReason {
  return errorBySelector.get(selector.toLowerCase()) ?? "reverted";
}
