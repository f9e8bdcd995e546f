import { bpsToPercent } from "./percent";

describe("bpsToPercent", () => {
  it.each([
    [7000, "70"],
    [1250, "12.5"],
    [5, "0.05"],
    [0, "0"],
    [1, "0.01"],
    [10, "0.1"],
    [99, "0.99"],
    [100, "1"],
    [101, "1.01"],
    [1000, "10"],
    [12345, "123.45"],
    [1_000_000, "10000"],
    [Number.MAX_SAFE_INTEGER, "90071992547409.91"],
  ])("%i bps is %s percent", (bps, percent) => {
    expect(bpsToPercent(bps)).toBe(percent);
  });

  it.each([-1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])("refuses %s", (bps) => {
    expect(() => bpsToPercent(bps)).toThrow(RangeError);
  });
});
