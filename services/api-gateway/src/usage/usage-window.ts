/** How many days GET /v1/usage returns when `days` is not given. */
export const DEFAULT_USAGE_DAYS = 30;

const DAY_MS = 86_400_000;

/** The UTC days of GET /v1/usage: the first of them, as YYYY-MM-DD, and how many, `now`'s day the last. */
export function usageWindow(days: number, now: Date): { first: string; days: number } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { first: new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10), days };
}
