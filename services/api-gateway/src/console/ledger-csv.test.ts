import { coins, csvCell, safeNote } from "./ledger-csv";

describe("csvCell", () => {
  it.each<[string | number | null, string]>([
    [null, ""],
    [42, "42"],
    ["-1000", "-1000"],
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\r", '"cr\r"'],
  ])("writes %j as %j", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe("safeNote", () => {
  it.each<[string | null, string | null]>([
    [null, null],
    ["agreement", "agreement"],
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["a=b", "a=b"],
  ])("keeps %j as %j", (note, safe) => {
    expect(safeNote(note)).toBe(safe);
  });
});

describe("coins", () => {
  it.each<[string, string]>([
    ["0", "0"],
    ["1000000000000000000", "1"],
    ["-520000000000000", "-0.00052"],
    ["1", "0.000000000000000001"],
    ["123456789012345678901234567890", "123456789012.34567890123456789"],
  ])("writes %s wei as %s coins", (wei, coin) => {
    expect(coins(wei)).toBe(coin);
  });
});
