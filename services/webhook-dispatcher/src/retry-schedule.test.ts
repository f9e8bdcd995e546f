import { afterFailedAttempt } from "./retry-schedule";

const now = new Date("2026-01-01T00:00:00.000Z");
const after = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe("the retry schedule", () => {
  it.each([
    [1, after(10)],
    [2, after(20)],
    [3, after(40)],
    [4, after(80)],
    [9, after(2560)],
    [10, after(3600)],
    [11, after(3600)],
  ])("after failed attempt %i waits until %s", (attempts, nextAttemptAt) => {
    expect(afterFailedAttempt(attempts, now, 10_000)).toEqual({ status: "pending", nextAttemptAt });
  });

  it.each([12, 13])("fails the delivery after attempt %i", (attempts) => {
    expect(afterFailedAttempt(attempts, now, 10_000)).toEqual({ status: "failed", nextAttemptAt: null });
  });

  it("doubles from a shorter base as configured for tests", () => {
    expect(afterFailedAttempt(3, now, 100).nextAttemptAt).toEqual(new Date(now.getTime() + 400));
  });
});
