/**
 * The health of one RPC endpoint, as plain data with pure transitions: a failed request (no
 * connection, timeout, 429, 5xx) takes the endpoint out of rotation for a backoff that doubles with
 * each consecutive failure (or for the Retry-After a 429 named); a success puts it back at once.
 */
export interface EndpointHealth {
  consecutiveFailures: number;
  /** epoch ms before which the endpoint is only a last resort */
  downUntil: number;
  /** share of recent requests that failed, an exponentially weighted average in [0, 1] */
  errorRate: number;
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 500, maxMs: 30_000 };

/** Weight of the newest request in the error rate: about the last ten requests count. */
const ERROR_RATE_WEIGHT = 0.1;

export const freshHealth = (): EndpointHealth => ({ consecutiveFailures: 0, downUntil: 0, errorRate: 0 });

export function afterSuccess(health: EndpointHealth): EndpointHealth {
  return { consecutiveFailures: 0, downUntil: 0, errorRate: health.errorRate * (1 - ERROR_RATE_WEIGHT) };
}

export function afterFailure(health: EndpointHealth, now: number, backoff: Backoff, retryAfterMs?: number): EndpointHealth {
  const consecutiveFailures = health.consecutiveFailures + 1;
  const doubling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(consecutiveFailures - 1, 30));
  const pause = retryAfterMs === undefined ? doubling : Math.min(backoff.maxMs, Math.max(retryAfterMs, backoff.baseMs));
  return { consecutiveFailures, downUntil: now + pause, errorRate: health.errorRate * (1 - ERROR_RATE_WEIGHT) + ERROR_RATE_WEIGHT };
}

export function isUp(health: EndpointHealth, now: number): boolean {
  return now >= health.downUntil;
}

/** The health score the metrics show: 0 while out of rotation, otherwise the share of recent requests that succeeded. */
export function healthScore(health: EndpointHealth, now: number): number {
  return isUp(health, now) ? 1 - health.errorRate : 0;
}

/**
 * The order to try endpoints in: those in rotation in the configured order (the operator lists the
 * preferred first, and staying on one endpoint keeps successive reads at one node's view), then those
 * out of rotation, soonest back first, as a last resort: with every endpoint down a request still
 * tries them rather than failing without asking.
 */
export function attemptOrder(healths: readonly EndpointHealth[], now: number): number[] {
  const indexes = healths.map((_health, index) => index);
  const up = indexes.filter((i) => isUp(healths[i]!, now));
  const down = indexes.filter((i) => !isUp(healths[i]!, now)).sort((a, b) => healths[a]!.downUntil - healths[b]!.downUntil);
  return [...up, ...down];
}
