/**
 * Seconds from a message's AMQP timestamp (whole seconds since the epoch, as the publisher and the
 * outbox relay set it) to `nowMs`; never negative (the clocks of two hosts differ). Undefined for
 * a message without one.
 */
export function messageAgeSeconds(timestamp: unknown, nowMs: number): number | undefined {
  if (typeof timestamp !== "number" || !Number.isFinite(timestamp)) return undefined;
  return Math.max(0, nowMs / 1000 - timestamp);
}
