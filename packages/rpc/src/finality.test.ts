import { finalAtDepth, isFinal } from "./finality";

describe("finality at a depth of confirmations", () => {
  it.each([
    [100, 1, 100],
    [100, 0, 100],
    [110, 12, 99],
    [111, 12, 100],
    [5, 15, -9],
  ])("at head %i with %i confirmations the final block is %i", (head, confirmations, expected) => {
    expect(finalAtDepth(head, confirmations)).toBe(expected);
  });

  it.each([
    [100, 100, 1, true],
    [100, 99, 1, false],
    [100, 100, 0, true],
    [100, 110, 12, false],
    [100, 111, 12, true],
    [101, 100, 1, false],
  ])("a receipt in block %i at head %i with %i confirmations is final: %s", (block, head, confirmations, expected) => {
    expect(isFinal(block, finalAtDepth(head, confirmations))).toBe(expected);
  });

  it.each([
    [92, 92, true],
    [93, 92, false],
  ])("a receipt in block %i with the node's finalized block at %i is final: %s", (block, finalized, expected) => {
    expect(isFinal(block, finalized)).toBe(expected);
  });
});
