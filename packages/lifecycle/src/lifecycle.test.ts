import { afterAttemptFailure } from "./attempt-failure";
import { retryPauseMs } from "./retry-schedule";

describe("retry schedule", () => {
  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [6, 160_000],
    [7, 300_000],
    [100, 300_000],
  ])("after %i failed attempts pauses %i ms", (attempts, ms) => {
    expect(retryPauseMs(attempts)).toBe(ms);
  });

  it.each([[0], [-1], [1.5]])("refuses %s failed attempts", (attempts) => {
    expect(() => retryPauseMs(attempts)).toThrow(RangeError);
  });
});

describe("after an attempt failure", () => {
  const now = new Date("2026-11-21T00:00:00Z");
  it.each([
    [1, 5, "queued", 5_000],
    [4, 5, "queued", 40_000],
    [5, 5, "failed", undefined],
    [6, 5, "failed", undefined],
  ] as const)("attempt %i of %i ends %s", (attempts, max, status, pause) => {
    const next = afterAttemptFailure(attempts, max, "chain_unavailable", now);
    expect(next.status).toBe(status);
    expect(next.reason).toBe("chain_unavailable");
    if (next.status === "queued") expect(next.nextAttemptAt.getTime() - now.getTime()).toBe(pause);
  });
});
