import { retryAfterSeconds } from "./request-limit";

describe("retryAfterSeconds", () => {
  it.each([
    [0, 1],
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [59_500, 60],
  ])("%i ms before the next window is Retry-After %i", (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});
