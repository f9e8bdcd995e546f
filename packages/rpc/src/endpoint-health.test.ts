import { afterFailure, afterSuccess, attemptOrder, freshHealth, healthScore, isUp, type EndpointHealth } from "./endpoint-health";

const backoff = { baseMs: 500, maxMs: 30_000 };
const failedTimes = (n: number, now = 0): EndpointHealth => Array.from({ length: n }).reduce<EndpointHealth>((h) => afterFailure(h, now, backoff), freshHealth());

describe("endpoint health", () => {
  it.each([
    [1, 500],
    [2, 1_000],
    [3, 2_000],
    [7, 30_000],
    [60, 30_000],
  ])("after %i consecutive failures the endpoint is out of rotation for %i ms", (failures, pause) => {
    const health = failedTimes(failures, 1_000);
    expect(health.downUntil).toBe(1_000 + pause);
    expect(isUp(health, 1_000 + pause - 1)).toBe(false);
    expect(isUp(health, 1_000 + pause)).toBe(true);
  });

  it.each([
    ["a Retry-After longer than the doubling", 5_000, 5_000],
    ["a Retry-After shorter than the base", 10, 500],
    ["a Retry-After beyond the cap", 3_600_000, 30_000],
  ])("a 429 with %s pauses the endpoint for it, within the bounds", (_name, retryAfter, pause) => {
    expect(afterFailure(freshHealth(), 0, backoff, retryAfter).downUntil).toBe(pause);
  });

  it("a success puts the endpoint back at once and lowers its error rate", () => {
    const failed = failedTimes(3);
    const recovered = afterSuccess(failed);
    expect(recovered.consecutiveFailures).toBe(0);
    expect(isUp(recovered, 0)).toBe(true);
    expect(recovered.errorRate).toBeLessThan(failed.errorRate);
    expect(recovered.errorRate).toBeGreaterThan(0);
  });

  it.each([
    ["a fresh endpoint", freshHealth(), 0, 1],
    ["one out of rotation", failedTimes(1), 100, 0],
    ["one back in rotation after one failure", failedTimes(1), 500, 0.9],
  ])("scores %s", (_name, health, now, score) => {
    expect(healthScore(health, now)).toBeCloseTo(score, 10);
  });
});

describe("attempt order", () => {
  const up = freshHealth();
  const downUntil = (t: number): EndpointHealth => ({ consecutiveFailures: 1, downUntil: t, errorRate: 0.1 });
  it.each([
    ["all up: the configured order", [up, up, up], [0, 1, 2]],
    ["the first down: the others first, then it", [downUntil(100), up, up], [1, 2, 0]],
    ["all down: soonest back first", [downUntil(300), downUntil(100), downUntil(200)], [1, 2, 0]],
    ["a recovered endpoint takes its place again", [downUntil(10), up], [0, 1]],
  ])("%s", (_name, healths, order) => {
    expect(attemptOrder(healths, 50)).toEqual(order);
  });
});
