import { loopRoundsTotal } from "@sweep/metrics";
import { pauseAfter, PollingLoop, type PollingLoopOptions } from "./polling-loop";

/** A loop whose rounds are recorded at the fake clock's time, each answering from `outcomes` (an Error is thrown). */
function loopOf(outcomes: Array<"again" | "idle" | "done" | Error | undefined>, options: Partial<PollingLoopOptions> = {}) {
  const rounds: number[] = [];
  const failures: number[] = [];
  const loop = new PollingLoop({
    name: `test_${Math.random()}`,
    intervalMs: 1_000,
    round: async () => {
      rounds.push(Date.now() - start);
      const outcome = outcomes.shift();
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    failed: (_err, inRow) => failures.push(inRow),
    ...options,
  });
  const start = Date.now();
  return { loop, rounds, failures };
}

async function rounded(name: string): Promise<Record<string, number>> {
  const { values } = await loopRoundsTotal.get();
  return Object.fromEntries(values.filter((v) => v.labels.loop === name).map((v) => [String(v.labels.outcome), v.value]));
}

describe("PollingLoop", () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-25T00:00:00Z") }));
  afterEach(() => jest.useRealTimers());

  it.each<[string, Array<"again" | "idle" | "done" | Error | undefined>, Partial<PollingLoopOptions>, number[], number[]]>([
    ["a round, then one every interval", [], {}, [0, 1_000, 2_000, 3_000], []],
    ["the first round after one interval", [], { pauseFirst: true }, [1_000, 2_000, 3_000], []],
    ["again: the next round at once", ["again", "again"], {}, [0, 0, 0, 1_000, 2_000, 3_000], []],
    ["done: no more rounds", [undefined, "done"], {}, [0, 1_000], []],
    ["a failed round: the interval, without a backoff", [new Error("x"), new Error("x")], {}, [0, 1_000, 2_000, 3_000], [1, 2]],
    ["failed rounds back off, doubling up to the bound", [new Error("x"), new Error("x"), new Error("x"), undefined], { maxBackoffMs: 5_000 }, [0, 2_000, 6_000, 11_000], [1, 2, 3]],
    ["a success ends the backoff", [new Error("x"), undefined], { maxBackoffMs: 5_000 }, [0, 2_000, 3_000], [1]],
    ["idle rounds rest longer, doubling up to the bound", ["idle", "idle", "idle", "idle", "idle"], { idleMaxMs: 4_000 }, [0, 1_000, 3_000, 7_000, 11_000], []],
    ["a round with work ends the rest", ["idle", "idle", "idle", undefined, "idle"], { idleMaxMs: 4_000 }, [0, 1_000, 3_000, 7_000, 8_000, 9_000], []],
    ["idle without a bound: the interval", ["idle", "idle", "idle"], {}, [0, 1_000, 2_000, 3_000], []],
  ])("%s", async (_what, outcomes, options, expected, failures) => {
    const run = loopOf(outcomes, options);
    run.loop.start();
    await jest.advanceTimersByTimeAsync(expected[expected.length - 1]!);
    await run.loop.stop();
    expect(run.rounds).toEqual(expected);
    expect(run.failures).toEqual(failures);
  });

  it.each([
    ["the interval after a round with work", { failures: 0, idleRounds: 0 }, 500],
    ["the interval after the first idle round", { failures: 0, idleRounds: 1 }, 500],
    ["doubled per idle round after the first", { failures: 0, idleRounds: 3 }, 2_000],
    ["never above the idle bound", { failures: 0, idleRounds: 40 }, 3_000],
    ["the failure backoff before the idle rest", { failures: 2, idleRounds: 0 }, 2_000],
    ["the failure backoff up to its own bound", { failures: 9, idleRounds: 0 }, 10_000],
    ["an idle rest ends when the next work is due", { failures: 0, idleRounds: 3, dueInMs: 1_200 }, 1_200],
    ["an idle rest not past its doubling for work due later", { failures: 0, idleRounds: 3, dueInMs: 2_800 }, 2_000],
    ["work due before one interval: the interval", { failures: 0, idleRounds: 3, dueInMs: 100 }, 500],
    ["work overdue: the interval", { failures: 0, idleRounds: 3, dueInMs: -5_000 }, 500],
    ["the first idle round: the interval, whenever work is due", { failures: 0, idleRounds: 1, dueInMs: 2_000 }, 500],
    ["a failure: its backoff, whenever work is due", { failures: 2, idleRounds: 0, dueInMs: 600 }, 2_000],
  ])("pauseAfter: %s", (_what, counts, expected) => {
    expect(pauseAfter({ intervalMs: 500, maxBackoffMs: 10_000, idleMaxMs: 3_000, ...counts })).toBe(expected);
  });

  it("an idle round that knows when its next work is due rests until then at the latest", async () => {
    const rounds: number[] = [];
    const start = Date.now();
    const loop = new PollingLoop({
      name: "test_idle_until",
      intervalMs: 1_000,
      idleMaxMs: 8_000,
      round: async () => {
        rounds.push(Date.now() - start);
        return { idleUntil: start + 5_000 };
      },
      failed: () => undefined,
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(6_000);
    await loop.stop();
    // 0 → interval; 1 s → 2 s of rest; 3 s → 4 s of rest cut to 2 s by the due time; 5 s → due now: the interval.
    expect(rounds).toEqual([0, 1_000, 3_000, 5_000, 6_000]);
  });

  it("rests no longer once woken: the round after a wake pauses the interval again", async () => {
    const rounds: number[] = [];
    const start = Date.now();
    const loop = new PollingLoop({
      name: "test_idle_wake",
      intervalMs: 1_000,
      idleMaxMs: 8_000,
      round: async () => {
        rounds.push(Date.now() - start);
        return "idle";
      },
      failed: () => undefined,
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(7_000);
    expect(rounds).toEqual([0, 1_000, 3_000, 7_000]);
    loop.wake();
    await jest.advanceTimersByTimeAsync(1_000);
    await loop.stop();
    expect(rounds).toEqual([0, 1_000, 3_000, 7_000, 7_000, 8_000]);
  });

  it("starts a round when woken, and after the round under way when woken during it", async () => {
    let release: () => void = () => undefined;
    const rounds: number[] = [];
    const start = Date.now();
    const loop = new PollingLoop({
      name: "test_wake",
      intervalMs: 1_000,
      round: async () => {
        rounds.push(Date.now() - start);
        if (rounds.length === 2) await new Promise<void>((resolve) => (release = resolve));
      },
      failed: () => undefined,
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(300);
    loop.wake(); // during the pause: the second round at 300, which waits
    await jest.advanceTimersByTimeAsync(100);
    loop.wake(); // during the second round
    await jest.advanceTimersByTimeAsync(100);
    release(); // the third round at once, at 500
    await jest.advanceTimersByTimeAsync(0);
    await loop.stop();
    expect(rounds).toEqual([0, 300, 500]);
  });

  it("stops during a pause at once, and after the round under way, which sees it stopping", async () => {
    let seen: boolean | undefined;
    let release: () => void = () => undefined;
    const loop = new PollingLoop({
      name: "test_stop",
      intervalMs: 60_000,
      round: async (stopping) => {
        await new Promise<void>((resolve) => (release = resolve));
        seen = stopping.aborted;
      },
      failed: () => undefined,
    });
    loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(seen).toBe(true);
    const idle = loopOf([]);
    idle.loop.start();
    await jest.advanceTimersByTimeAsync(10);
    await idle.loop.stop(); // within the pause, without advancing the clock
    expect(idle.rounds).toEqual([0]);
  });

  it("counts rounds by outcome", async () => {
    const run = loopOf([undefined, new Error("x"), undefined], { name: "test_counted" });
    run.loop.start();
    await jest.advanceTimersByTimeAsync(2_000);
    await run.loop.stop();
    expect(await rounded("test_counted")).toEqual({ ok: 2, failed: 1 });
  });
});
