import { GatherWindow } from "./gather-window";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("gather window", () => {
  function recorder(roundMs = 0) {
    const rounds: Array<{ key: string; at: number }> = [];
    const start = Date.now();
    const round = async (key: string) => {
      rounds.push({ key, at: Date.now() - start });
      if (roundMs > 0) await sleep(roundMs);
    };
    return { rounds, round };
  }

  describe("on a clock", () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it("gathers requests that keep arriving into one round after the last goes quiet", async () => {
      const { rounds, round } = recorder();
      const window = new GatherWindow({ quietMs: 60, maxMs: 1_000 }, round);
      const done: Promise<void>[] = [];
      for (let i = 0; i < 5; i++) {
        done.push(window.request("hw"));
        await jest.advanceTimersByTimeAsync(20);
      }
      expect(rounds).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(40);
      await Promise.all(done);
      expect(rounds).toEqual([{ key: "hw", at: 80 + 60 }]);
    });

    it("never waits longer than the maximum after the first request", async () => {
      const { rounds, round } = recorder();
      const window = new GatherWindow({ quietMs: 50, maxMs: 150 }, round);
      const done: Promise<void>[] = [];
      for (let t = 0; t < 400; t += 10) {
        done.push(window.request("hw"));
        await jest.advanceTimersByTimeAsync(10);
      }
      await jest.advanceTimersByTimeAsync(200);
      await Promise.all(done);
      expect(rounds.map((r) => r.at)).toEqual([150, 300, 400 + 50 - 10]);
    });

    it("starts at once for an immediate request, cutting short a window already open", async () => {
      const { rounds, round } = recorder();
      const window = new GatherWindow({ quietMs: 100, maxMs: 500 }, round);
      const gathering = window.request("hw");
      await jest.advanceTimersByTimeAsync(30);
      const woken = window.request("hw", { immediate: true });
      await jest.advanceTimersByTimeAsync(0);
      await Promise.all([gathering, woken]);
      expect(rounds).toEqual([{ key: "hw", at: 30 }]);
    });

    it("starts the next round as soon as the running one ends for an immediate request made during it", async () => {
      const { rounds, round } = recorder(50);
      const window = new GatherWindow({ quietMs: 100, maxMs: 500 }, round);
      const first = window.request("hw", { immediate: true });
      await jest.advanceTimersByTimeAsync(10);
      const during = window.request("hw", { immediate: true });
      await jest.advanceTimersByTimeAsync(40);
      await first;
      const after = window.request("hw");
      await jest.advanceTimersByTimeAsync(200);
      await Promise.all([during, after]);
      // the request after the immediate one rides on its round; a plain request alone would have waited 100 ms
      expect(rounds).toEqual([
        { key: "hw", at: 0 },
        { key: "hw", at: 50 },
      ]);
    });
  });

  it("keeps keys apart", async () => {
    const { rounds, round } = recorder();
    const window = new GatherWindow({ quietMs: 10, maxMs: 50 }, round);
    await Promise.all([window.request("a"), window.request("b"), window.request("a")]);
    expect(rounds.map((r) => r.key).sort()).toEqual(["a", "b"]);
  });

  it("runs one round of a key at a time; requests during it get the next round", async () => {
    let running = 0;
    let most = 0;
    let count = 0;
    const window = new GatherWindow({ quietMs: 5, maxMs: 20 }, async () => {
      count++;
      most = Math.max(most, ++running);
      await sleep(50);
      running--;
    });
    const first = window.request("hw");
    await sleep(20);
    const during = [window.request("hw"), window.request("hw")];
    await Promise.all([first, ...during]);
    expect({ count, most }).toEqual({ count: 2, most: 1 });
    expect(window.busy).toBe(0);
  });

  it("tells every requester of a round that failed", async () => {
    const window = new GatherWindow({ quietMs: 5, maxMs: 20 }, async () => {
      throw new Error("database down");
    });
    const results = await Promise.allSettled([window.request("hw"), window.request("hw")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });

  it("on stop waits for the round under way and drops windows not started", async () => {
    let finished = false;
    const window = new GatherWindow({ quietMs: 5, maxMs: 20 }, async (key) => {
      if (key === "slow") {
        await sleep(100);
        finished = true;
      }
    });
    const slow = window.request("slow");
    await sleep(30);
    const later = expect(window.request("slow")).rejects.toThrow("stopping");
    const waiting = new GatherWindow({ quietMs: 10_000, maxMs: 10_000 }, async () => undefined);
    const neverStarted = expect(waiting.request("hw")).rejects.toThrow("stopping");
    await Promise.all([window.stop(), waiting.stop()]);
    expect(finished).toBe(true);
    await expect(slow).resolves.toBeUndefined();
    await later;
    await neverStarted;
    await expect(window.request("hw")).rejects.toThrow("stopping");
  });
});
