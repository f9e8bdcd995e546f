/** What a handler returns to have its message delivered again later instead of now. */
export interface RetryLater {
  retryAfterMs: number;
}

export function retryAfter(delayMs: number): RetryLater {
  return { retryAfterMs: delayMs };
}

export function isRetryLater(value: unknown): value is RetryLater {
  return typeof value === "object" && value !== null && typeof (value as RetryLater).retryAfterMs === "number";
}

/**
 * The delay tier a retry waits in: the shortest tier not shorter than asked (never early), or the
 * longest tier when more was asked. Tiers are sorted ascending.
 */
export function delayTierFor(delayMs: number, tiers: readonly number[]): number {
  const tier = tiers.find((t) => t >= delayMs) ?? tiers[tiers.length - 1];
  if (tier === undefined) throw new Error("no delay tiers configured");
  return tier;
}
