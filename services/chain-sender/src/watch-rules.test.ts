import { isFinal, isStuck, nonceTakenByOther } from "./watch-rules";

describe("watch rules", () => {
  it.each([
    [100, 100, 1, true],
    [100, 99, 1, false],
    [100, 100, 0, true],
    [100, 110, 12, false],
    [100, 111, 12, true],
  ])("a receipt in block %i at head %i with %i confirmations is final: %s", (block, head, confirmations, expected) => {
    expect(isFinal(block, head, confirmations)).toBe(expected);
  });

  it.each([
    [0, 10_000, false],
    [9_999, 10_000, false],
    [10_000, 10_000, true],
    [60_000, 10_000, true],
  ])("%i ms after sending with a %i ms bound is stuck: %s", (elapsed, bound, expected) => {
    const sent = new Date("2026-11-21T00:00:00Z");
    expect(isStuck(sent, new Date(sent.getTime() + elapsed), bound)).toBe(expected);
  });

  it.each([
    [5n, 4n, false],
    [5n, 5n, false],
    [5n, 6n, true],
    [5n, 9n, true],
  ])("nonce %s without a receipt, the chain counting %s at depth: taken by another %s", (nonce, chain, expected) => {
    expect(nonceTakenByOther(nonce, chain)).toBe(expected);
  });
});
