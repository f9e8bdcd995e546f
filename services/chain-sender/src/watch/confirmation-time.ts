/**
 * Seconds from the first broadcast of a nonce's transaction (any of its versions: a replacement
 * does not restart the clock) to `nowMs`. A version never marked broadcast counts from its
 * storing, which happens just before its broadcast.
 */
export function sinceFirstBroadcast(versions: ReadonlyArray<{ broadcastAt: Date | null; createdAt: Date }>, nowMs: number): number {
  const first = Math.min(...versions.map((v) => (v.broadcastAt ?? v.createdAt).getTime()));
  return Math.max(0, nowMs - first) / 1000;
}
