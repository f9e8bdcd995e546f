import { formatUnits, parseUnits, percentOf, shorten } from "./format";

describe("console amounts", () => {
  it.each([
    ["0", 18, "0"],
    ["1000000000000000000", 18, "1"],
    ["1500000000000000000", 18, "1.5"],
    ["-21000000000000", 18, "-0.000021"],
    ["25000000", 6, "25"],
    ["1", 6, "0.000001"],
    ["123456789012345678901234567890", 18, "123456789012.34567890123456789"],
  ])("%s with %i decimals is %s", (amount, decimals, expected) => {
    expect(formatUnits(amount, decimals)).toBe(expected);
  });

  it.each<[string, number, string | null]>([
    ["0.05", 18, "50000000000000000"],
    ["25", 6, "25000000"],
    ["25.", 6, "25000000"],
    [".5", 6, "500000"],
    [" 1.000001 ", 6, "1000001"],
    ["0.0000001", 6, null],
    ["1e18", 18, null],
    ["-1", 18, null],
    ["", 18, null],
    [".", 18, null],
    ["1,5", 18, null],
    ["123456789012.34567890123456789", 18, "123456789012345678901234567890"],
  ])("%j typed with %i decimals is %s base units", (text, decimals, expected) => {
    expect(parseUnits(text, decimals)).toBe(expected);
    if (expected !== null) expect(formatUnits(expected, decimals)).toBe(formatUnits(parseUnits(formatUnits(expected, decimals), decimals)!, decimals));
  });

  it.each([
    [35n, 100n, "35.0%"],
    [1n, 3n, "33.3%"],
    [5n, 0n, "—"],
    [-1n, 20n, "-5.0%"],
    [1325n, 1000n, "132.5%"],
  ])("%s of %s is %s", (part, whole, expected) => {
    expect(percentOf(part, whole)).toBe(expected);
  });

  it("shortens long hex and keeps short strings", () => {
    expect(shorten("0x52908400098527886E0F7030069857D2E4169EE7")).toBe("0x529084…169EE7");
    expect(shorten("0xabc")).toBe("0xabc");
  });
});
