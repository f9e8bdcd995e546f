/** Attempts a sweep or revocation gets before an attempt failure makes it final (failed). */
export const DEFAULT_MAX_ATTEMPTS = 5;

const BASE_MS = 5_000;
const CAP_MS = 300_000;

/** The pause after the n-th failed attempt: 5 s, 10 s, 20 s, … doubling, at most 5 minutes. */
export function retryPauseMs(failedAttempts: number): number {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) throw new RangeError(`failed attempts must be a positive integer, got ${failedAttempts}`);
  return Math.min(CAP_MS, BASE_MS * 2 ** Math.min(failedAttempts - 1, 30));
}
