import { seedOf, seededRandom } from "./seeded-random";

describe("seeded random", () => {
  it.each([0, 1, 42, 2 ** 32 - 1])("repeats its sequence for seed %i and stays in range", (seed) => {
    const [a, b] = [seededRandom(seed), seededRandom(seed)];
    const draws = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(draws).size).toBeGreaterThan(990);
  });

  it("differs between seeds", () => {
    expect(seededRandom(1).next()).not.toBe(seededRandom(2).next());
  });

  it.each<[number, number]>([
    [0, 0],
    [3, 7],
    [-5, 5],
  ])("draws integers from %i to %i, each bound reached", (min, max) => {
    const random = seededRandom(7);
    const seen = new Set(Array.from({ length: 2000 }, () => random.int(min, max)));
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: max - min + 1 }, (_, i) => min + i));
  });

  it("shuffles into a permutation, leaving the input as it was", () => {
    const items = ["a", "b", "c", "d", "e"];
    const shuffled = seededRandom(3).shuffle(items);
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual(["a", "b", "c", "d", "e"]);
  });

  it.each<[string | undefined, number | string]>([
    [undefined, 99],
    ["", 99],
    ["0", 0],
    ["123456", 123456],
    ["4294967295", 4294967295],
    ["4294967296", "FAULTS_SEED must be"],
    ["-1", "FAULTS_SEED must be"],
    ["1.5", "FAULTS_SEED must be"],
    ["abc", "FAULTS_SEED must be"],
  ])("takes the seed %p as %p", (given, expected) => {
    if (typeof expected === "number") expect(seedOf(given, () => 99)).toBe(expected);
    else expect(() => seedOf(given, () => 99)).toThrow(expected);
  });

  it("names the variable it read in its complaint", () => {
    expect(() => seedOf("x", () => 99, "RPC_FAULTS_SEED")).toThrow("RPC_FAULTS_SEED must be an integer from 0 to 4294967295, got x");
  });
});
