import { balancesAfter, type BookedEntry } from "./running-balance";

const entry = (id: number, chainId: number, kind: string, amount: bigint): BookedEntry => ({ id: BigInt(id), chainId, kind, amount });

describe("balancesAfter", () => {
  it.each<[string, BookedEntry[], Array<[number, bigint]>, BookedEntry[], Array<[number, bigint]>]>([
    ["a top-up, then gas", [entry(2, 1, "gas", -30n), entry(1, 1, "topup", 100n)], [], [entry(1, 1, "topup", 100n), entry(2, 1, "gas", -30n)], [[1, 100n], [2, 70n]]],
    ["from the balance before the page", [entry(5, 1, "gas", -1n)], [[1, 1_000n]], [entry(5, 1, "gas", -1n)], [[5, 999n]]],
    ["fees move nothing: the balance after a fee is the one before it", [entry(3, 1, "fee", -7n), entry(2, 1, "gas", -5n)], [[1, 50n]], [entry(2, 1, "gas", -5n)], [[2, 45n], [3, 45n]]],
    [
      "a filter's left-out entries still move the balance (only fees listed)",
      [entry(4, 1, "fee", -2n), entry(2, 1, "fee", -1n)],
      [[1, 10n]],
      [entry(3, 1, "gas", -3n), entry(4, 1, "fee", -2n)],
      [[2, 10n], [4, 7n]],
    ],
    ["each chain on its own", [entry(3, 2, "gas", -1n), entry(2, 1, "gas", -2n)], [[1, 10n], [2, 20n]], [entry(2, 1, "gas", -2n), entry(3, 2, "gas", -1n)], [[2, 8n], [3, 19n]]],
    ["a chain without entries before starts at 0", [entry(9, 5, "withdrawal", -4n)], [], [entry(9, 5, "withdrawal", -4n)], [[9, -4n]]],
  ])("%s", (_story, listed, before, between, expected) => {
    const after = balancesAfter(listed, new Map(before), between);
    expect([...after].map(([id, balance]) => [Number(id), balance]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(expected);
  });
});
