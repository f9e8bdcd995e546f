import { blocksAsMs, headPollMs, nextHeadRead } from "./watch-timing";

describe("the watcher's timers in its chain's terms", () => {
  it.each([
    ["Ethereum", 12_000, 1_500],
    ["a 2 s chain", 2_000, 250],
    ["a test chain of 1 s blocks", 1_000, 125],
    ["BSC", 450, 56],
    ["a chain faster than the floor allows", 100, 50],
  ])("%s (%i ms blocks): the head is polled every %i ms once a block is due", (_name, blockTimeMs, poll) => {
    expect(headPollMs(blockTimeMs)).toBe(poll);
  });

  it.each([
    ["Ethereum replaces after 3 slots", 3, 12_000, 36_000],
    ["BSC after 30 blocks", 30, 450, 13_500],
    ["0 blocks is at once", 0, 12_000, 0],
  ])("%s", (_name, blocks, blockTimeMs, ms) => {
    expect(blocksAsMs(blocks, blockTimeMs)).toBe(ms);
  });

  const base = { blockTimeMs: 12_000, pollMs: 1_500, headSeenAt: 0, deadline: 24_000 };
  it.each([
    ["waits for the next block to be due", { now: 1_000, lateReads: 0 }, 11_000],
    ["reads at once when it is due", { now: 12_000, lateReads: 0 }, 1_500],
    ["then every poll after the read at the due time found none", { now: 12_000, lateReads: 1 }, 1_500],
    ["doubling while no block comes", { now: 13_500, lateReads: 2 }, 3_000],
    ["up to a block time", { now: 16_500, lateReads: 5, deadline: 60_000 }, 12_000],
    ["never past the round's deadline", { now: 20_000, lateReads: 3 }, 4_000],
    ["nothing once the deadline passed", { now: 25_000, lateReads: 3 }, 0],
  ])("%s", (_name, input, wait) => {
    expect(nextHeadRead({ ...base, ...input })).toBe(wait);
  });
});
