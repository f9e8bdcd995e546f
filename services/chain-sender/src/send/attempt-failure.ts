import { ChainCallError } from "@sweep/rpc";
import type { AttemptFailureReason } from "@sweep/common";

/** An attempt that cannot go on, for a reason of the spec's (found by this service's own checks). */
export class AttemptFailure extends Error {
  constructor(
    readonly reason: AttemptFailureReason,
    message: string,
  ) {
    super(message);
    this.name = "AttemptFailure";
  }
}

/** The reason an attempt failed: this service's own verdict, chain_unavailable for a node that failed us, internal otherwise. */
export function failureReason(err: unknown): AttemptFailureReason {
  if (err instanceof AttemptFailure) return err.reason;
  if (err instanceof ChainCallError) return "chain_unavailable";
  return "internal";
}
