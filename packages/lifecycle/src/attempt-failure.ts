import type { AttemptFailureReason } from "@sweep/common";
import { retryPauseMs } from "./retry-schedule";

export type AfterAttemptFailure =
  | { status: "queued"; reason: AttemptFailureReason; nextAttemptAt: Date }
  | { status: "failed"; reason: AttemptFailureReason };

/**
 * Where a sweep or revocation goes when an attempt fails: back to queued with the reason and a
 * growing pause while attempts remain, failed once they ran out. `attempts` already counts the
 * attempt that failed.
 */
export function afterAttemptFailure(attempts: number, maxAttempts: number, reason: AttemptFailureReason, now: Date): AfterAttemptFailure {
  if (attempts >= maxAttempts) return { status: "failed", reason };
  return { status: "queued", reason, nextAttemptAt: new Date(now.getTime() + retryPauseMs(attempts)) };
}
