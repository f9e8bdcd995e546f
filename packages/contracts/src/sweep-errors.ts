import { sweepDelegateInterface } from "./sweep-delegate-abi";

export const SWEEP_ERRORS = ["Unauthorized", "NothingToSweep", "TokenTransferFailed", "NativeTransferFailed"] as const;
export type SweepError = (typeof SWEEP_ERRORS)[number];
/** Why an item failed: a delegate error, or "reverted" for anything else (no error selector,
 * a selector the delegate does not define, or an address that is not delegated). */
export type SweepFailureReason = SweepError | "reverted";

/** 4-byte selector (0x-hex, lower case) of each delegate error. */
export const SWEEP_ERROR_SELECTORS: Readonly<Record<SweepError, string>> = Object.fromEntries(
  SWEEP_ERRORS.map((name) => [name, sweepDelegateInterface.getError(name)!.selector]),
) as Record<SweepError, string>;

const errorBySelector = new Map<string, SweepError>(SWEEP_ERRORS.map((name) => [SWEEP_ERROR_SELECTORS[name], name]));

export function sweepFailureReason(selector: string): SweepFailureReason {
  return errorBySelector.get(selector.toLowerCase()) ?? "reverted";
}
