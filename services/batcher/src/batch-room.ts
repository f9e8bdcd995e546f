/** A hot wallet's batches not yet settled, as its next round finds them. */
export interface BatchesUnderWay {
  /** the age of the batch being prepared (claimed, not yet signed and sent), by the database's clock; null when there is none */
  preparingAgeMs: number | null;
  /** sent batches not yet settled */
  sent: number;
}

/**
 * When the hot wallet's next batch may be claimed: now; once the batch being prepared is sent (the
 * round reads its sweeps on chain meanwhile, then waits at most `readAheadMs` after that batch was
 * claimed); or not before a wake. A batch being prepared longer than that (a sender held back, down,
 * or waiting for the gas price) is not read ahead of, so a stuck sender costs no reads.
 */
export type BatchRoom = { room: "now" } | { room: "once_sent"; waitMs: number } | { room: "none" };

export function nextBatchRoom(underWay: BatchesUnderWay, maxSent: number, readAheadMs: number): BatchRoom {
  if (underWay.preparingAgeMs === null) return underWay.sent < maxSent ? { room: "now" } : { room: "none" };
  // Once sent, the batch being prepared counts among the sent ones.
  if (underWay.sent + 1 >= maxSent || underWay.preparingAgeMs >= readAheadMs) return { room: "none" };
  return { room: "once_sent", waitMs: readAheadMs - underWay.preparingAgeMs };
}
