/** Attempts in all before a delivery fails (the spec's delivery rules). */
export const MAX_ATTEMPTS = 12;
/** The longest pause between two attempts. */
export const MAX_PAUSE_MS = 3_600_000;

export type AfterFailure = { status: "pending"; nextAttemptAt: Date } | { status: "failed"; nextAttemptAt: null };

/**
 * Where a delivery stands after its `attempts`-th attempt failed: pending again after base,
 * 2·base, 4·base … (at most an hour), or failed once the attempts ran out.
 */
export function afterFailedAttempt(attempts: number, now: Date, baseMs: number): AfterFailure {
  if (attempts >= MAX_ATTEMPTS) return { status: "failed", nextAttemptAt: null };
  const pause = Math.min(MAX_PAUSE_MS, baseMs * 2 ** (attempts - 1));
  return { status: "pending", nextAttemptAt: new Date(now.getTime() + pause) };
}
