import { isStuck, nextTakenRun, takenForSure, type TakenRun } from "./watch-rules";

describe("watch rules", () => {
  it.each([
    [0, 10_000, false],
    [9_999, 10_000, false],
    [10_000, 10_000, true],
    [60_000, 10_000, true],
  ])("%i ms after sending with a %i ms bound is stuck: %s", (elapsed, bound, expected) => {
    const sent = new Date("2026-11-21T00:00:00Z");
    expect(isStuck(sent, new Date(sent.getTime() + elapsed), bound)).toBe(expected);
  });

  it.each<[string, TakenRun | undefined, number, boolean, TakenRun | undefined]>([
    ["a first round that saw it taken starts a run", undefined, 100, true, { rounds: 1, firstHead: 100, lastHead: 100 }],
    ["a round at a later head adds to it", { rounds: 1, firstHead: 100, lastHead: 100 }, 103, true, { rounds: 2, firstHead: 100, lastHead: 103 }],
    ["a round at the same head adds nothing", { rounds: 2, firstHead: 100, lastHead: 103 }, 103, true, { rounds: 2, firstHead: 100, lastHead: 103 }],
    ["a round whose head was read from a backend behind adds nothing", { rounds: 2, firstHead: 100, lastHead: 103 }, 99, true, { rounds: 2, firstHead: 100, lastHead: 103 }],
    ["a round with a receipt or the nonce open ends the run", { rounds: 2, firstHead: 100, lastHead: 103 }, 104, false, undefined],
    ["no run, nothing taken", undefined, 104, false, undefined],
  ])("the taken run: %s", (_story, run, head, taken, expected) => {
    expect(nextTakenRun(run, head, taken)).toEqual(expected);
  });

  it.each<[TakenRun | undefined, boolean]>([
    [undefined, false],
    [{ rounds: 3, firstHead: 100, lastHead: 112 }, true],
    [{ rounds: 3, firstHead: 100, lastHead: 111 }, false],
    [{ rounds: 2, firstHead: 100, lastHead: 130 }, false],
    [{ rounds: 9, firstHead: 100, lastHead: 140 }, true],
  ])("the run %j is evidence enough (3 rounds over 12 blocks): %s", (run, expected) => {
    expect(takenForSure(run, { rounds: 3, blocks: 12 })).toBe(expected);
  });
});
