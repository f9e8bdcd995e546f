/**
 * The watcher's timers in its chain's terms, free of the node and the database: how often the head
 * is read, and the replacement and drop thresholds the chain's configuration gives in blocks.
 */

/** The head is never read more often than this, however short the block time. */
export const MIN_HEAD_POLL_MS = 50;

/** Once the next block is due, the head is read again after an eighth of the block time (then less often while none comes). */
export function headPollMs(blockTimeMs: number): number {
  return Math.max(MIN_HEAD_POLL_MS, Math.round(blockTimeMs / 8));
}

/**
 * A threshold in blocks as a time: that many of the chain's block times. Counted by the clock, not
 * by the head, so a chain that stops making blocks still reaches it (the blocks that would have
 * come by its block time), and a chain that makes them on time reaches it at the same moment.
 */
export function blocksAsMs(blocks: number, blockTimeMs: number): number {
  return blocks * blockTimeMs;
}

/**
 * How long to wait before reading the head again while transactions are in flight: until the next
 * block is due (one block time after the current head was first seen), then `pollMs`, doubling with
 * each read that found no new block (a halted chain is read about once a block time, not eight
 * times), never past the round's deadline.
 */
export function nextHeadRead(input: { now: number; headSeenAt: number; blockTimeMs: number; pollMs: number; lateReads: number; deadline: number }): number {
  const { now, headSeenAt, blockTimeMs, pollMs, lateReads, deadline } = input;
  const due = headSeenAt + blockTimeMs - now;
  const wait = due > 0 ? due : Math.min(blockTimeMs, pollMs * 2 ** Math.max(0, lateReads - 1));
  return Math.max(0, Math.min(wait, deadline - now));
}
