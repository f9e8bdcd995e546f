import { nextBatchRoom, type BatchRoom, type BatchesUnderWay } from "./batch-room";

describe("when a hot wallet's next batch may be claimed", () => {
  it.each<[string, BatchesUnderWay, number, number, BatchRoom]>([
    ["nothing under way", { preparingAgeMs: null, sent: 0 }, 4, 2_000, { room: "now" }],
    ["sent batches below BATCH_MAX_SENT", { preparingAgeMs: null, sent: 3 }, 4, 2_000, { room: "now" }],
    ["BATCH_MAX_SENT sent", { preparingAgeMs: null, sent: 4 }, 4, 2_000, { room: "none" }],
    ["one being prepared for 500 ms: read ahead, wait what is left of the 2 s", { preparingAgeMs: 500, sent: 0 }, 4, 2_000, { room: "once_sent", waitMs: 1_500 }],
    ["one being prepared that would fill BATCH_MAX_SENT once sent", { preparingAgeMs: 500, sent: 3 }, 4, 2_000, { room: "none" }],
    ["one being prepared for longer than the read-ahead: not read ahead of", { preparingAgeMs: 2_000, sent: 0 }, 4, 2_000, { room: "none" }],
    ["no read-ahead (0): one being prepared holds the next batch back", { preparingAgeMs: 0, sent: 0 }, 4, 0, { room: "none" }],
    ["BATCH_MAX_SENT 1: never read ahead", { preparingAgeMs: 0, sent: 0 }, 1, 2_000, { room: "none" }],
  ])("%s", (_what, underWay, maxSent, readAheadMs, expected) => {
    expect(nextBatchRoom(underWay, maxSent, readAheadMs)).toEqual(expected);
  });
});
