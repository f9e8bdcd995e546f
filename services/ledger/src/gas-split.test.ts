import { apportion, authorizationGas, directGas, splitEvenly, splitGas, type GasSplitItem } from "./gas-split";

const MAX = (1n << 256n) - 1n;
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

describe("authorization gas", () => {
  it.each([
    ["repeat", false, 0n],
    ["first", false, 0n],
    ["first_new", false, 0n],
    ["first", true, 12_500n],
    ["first_new", true, 25_000n],
    // re-delegating an address that already had this delegate: its account exists, so the refund applies
    ["repeat", true, 12_500n],
  ] as const)("%s with authorization %s costs %s", (kind, withAuthorization, gas) => {
    expect(authorizationGas(kind, withAuthorization)).toBe(gas);
    expect(directGas({ gasUsed: 18_000n, kind, withAuthorization })).toBe(18_000n + gas);
  });

  it("refuses an item with negative gas", () => {
    expect(() => directGas({ gasUsed: -1n, kind: "repeat", withAuthorization: false })).toThrow(RangeError);
  });
});

describe("apportion", () => {
  it.each([
    ["one weight takes all", 1_000n, [7n], [1_000n]],
    ["equal weights, even total", 10n, [1n, 1n], [5n, 5n]],
    ["equal weights, odd total: the earlier item gets the unit", 11n, [1n, 1n], [6n, 5n]],
    ["three equal weights, two units left: the first two", 2n, [1n, 1n, 1n], [1n, 1n, 0n]],
    ["the larger remainder wins over the earlier item", 1n, [1n, 2n], [0n, 1n]],
    ["a zero weight gets nothing", 9n, [0n, 3n, 0n], [0n, 9n, 0n]],
    ["all weights zero: evenly", 7n, [0n, 0n, 0n], [3n, 2n, 2n]],
    ["nothing to split", 0n, [5n, 6n], [0n, 0n]],
    ["total near 2^256", MAX, [1n, 1n, 1n], [MAX / 3n, MAX / 3n, MAX / 3n]],
    ["total and weights near 2^256", MAX, [MAX, MAX - 1n], [(MAX + 1n) / 2n, (MAX - 1n) / 2n]],
  ])("%s", (_what, total, weights, shares) => {
    const result = apportion(total, weights);
    expect(result).toEqual(shares);
    expect(sum(result)).toBe(total);
  });

  it("always adds up exactly and never goes negative", () => {
    // a deterministic spread of awkward totals and weights
    for (let seed = 1n; seed <= 200n; seed++) {
      const weights = Array.from({ length: Number((seed % 13n) + 1n) }, (_, i) => (seed * 7_919n * BigInt(i + 3)) % 100_003n);
      const total = (seed * 1_000_003n) % 3_000_017n;
      const shares = apportion(total, weights);
      expect(sum(shares)).toBe(total);
      expect(shares.every((s) => s >= 0n)).toBe(true);
    }
  });

  it.each([
    ["no weights", 1n, []],
    ["a negative total", -1n, [1n]],
    ["a negative weight", 1n, [2n, -1n]],
  ])("refuses %s", (_what, total, weights) => {
    expect(() => apportion(total, weights)).toThrow(RangeError);
  });
});

describe("gas split of a transaction", () => {
  const repeat: GasSplitItem = { gasUsed: 18_000n, kind: "repeat", withAuthorization: false };
  const first: GasSplitItem = { gasUsed: 20_000n, kind: "first", withAuthorization: true };
  const firstNew: GasSplitItem = { gasUsed: 20_000n, kind: "first_new", withAuthorization: true };

  it.each([
    ["a batch of one bears the whole receipt", 56_957n, [firstNew], [56_957n]],
    // direct 18,000 / 32,500 / 45,000 of 95,500; floors 20,732 / 37,434 / 51,832 leave 2 units for the two largest remainders
    ["shared gas in proportion to direct gas", 110_000n, [repeat, first, firstNew], [20_733n, 37_435n, 51_832n]],
    // refunds made the receipt smaller than the direct gas (95,500): floors 11,308 / 20,418 / 28,272, units to remainders 86,000 and 81,000
    ["refunds below the direct gas", 60_000n, [repeat, first, firstNew], [11_309n, 20_419n, 28_272n]],
    ["identical repeats share evenly, earlier items take the odd units", 72_003n, [repeat, repeat, repeat, repeat], [18_001n, 18_001n, 18_001n, 18_000n]],
  ])("%s", (_what, gasUsed, items, shares) => {
    const result = splitGas(gasUsed, items);
    expect(result).toEqual(shares);
    expect(sum(result)).toBe(gasUsed);
  });

  it("splits a gas figure near 2^256 exactly", () => {
    const shares = splitGas(MAX, [repeat, first, firstNew]);
    expect(sum(shares)).toBe(MAX);
    expect(shares.every((s) => s > 0n)).toBe(true);
  });
});

describe("even split", () => {
  it.each([
    ["one item bears the whole total", 21_000n, 1, [21_000n]],
    ["divisible: equal shares", 90_000n, 3, [30_000n, 30_000n, 30_000n]],
    ["one unit left: the first item takes it", 100_001n, 2, [50_001n, 50_000n]],
    ["two units left: the first two", 100_002n, 4, [25_001n, 25_001n, 25_000n, 25_000n]],
    ["fewer units than items", 2n, 3, [1n, 1n, 0n]],
    ["nothing to split", 0n, 2, [0n, 0n]],
    ["a total near 2^256", MAX, 2, [(MAX + 1n) / 2n, (MAX - 1n) / 2n]],
  ])("%s", (_what, total, count, shares) => {
    const result = splitEvenly(total, count);
    expect(result).toEqual(shares);
    expect(sum(result)).toBe(total);
  });

  it.each([
    ["no items", 1n, 0],
    ["a fraction of an item", 1n, 1.5],
    ["a negative total", -1n, 1],
  ])("refuses %s", (_what, total, count) => {
    expect(() => splitEvenly(total, count)).toThrow(RangeError);
  });
});
