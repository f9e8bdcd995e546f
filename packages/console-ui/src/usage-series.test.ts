import { coinTick, dayTick, quietSeries, usageSeries } from "./usage-series";

describe("usage as chart points", () => {
  it("keeps one chain's days in order, counts as they are and wei as coins", () => {
    const day = { sweeps_failed: 0, sweeps_rejected: 0, revocations_done: 0 };
    const points = usageSeries(
      [
        { ...day, date: "2026-11-24", chain_id: 97, sweeps_done: 1, gas_spent: "21000000000000", fees: "0" },
        { ...day, date: "2026-11-24", chain_id: 1, sweeps_done: 9, gas_spent: "1", fees: "1" },
        { ...day, date: "2026-11-25", chain_id: 97, sweeps_done: 4, sweeps_failed: 1, gas_spent: "1500000000000000000", fees: "-1000000000000000000" },
      ],
      97,
    );
    expect(points).toEqual([
      { date: "2026-11-24", done: 1, failed: 0, rejected: 0, gas: 0.000021, fees: 0 },
      { date: "2026-11-25", done: 4, failed: 1, rejected: 0, gas: 1.5, fees: -1 },
    ]);
  });
});

describe("chart details", () => {
  const day = { date: "2026-11-24", chain_id: 97, sweeps_done: 0, sweeps_failed: 0, sweeps_rejected: 0, revocations_done: 0, gas_spent: "0", fees: "0" };

  it.each<[string, Array<typeof day>, boolean]>([
    ["no days", [], true],
    ["days of nothing", [day, { ...day, date: "2026-11-25" }], true],
    ["a rejected sweep", [{ ...day, sweeps_rejected: 1 }], false],
    ["a revocation", [{ ...day, revocations_done: 1 }], false],
    ["gas alone (a deployment)", [{ ...day, gas_spent: "1" }], false],
    ["another chain's activity", [{ ...day, chain_id: 1, sweeps_done: 3 }], true],
  ])("%s: quiet %s", (_what, days, quiet) => {
    expect(quietSeries(days, 97)).toBe(quiet);
  });

  it.each<[number, string]>([
    [0, "0"],
    [0.000021, "0.000021"],
    [1.5, "1.5"],
    [100, "100"],
    [1000, "1000"],
    [0.123456, "0.1235"],
    [1234567, "1.235e+6"],
    [1e-7, "1e-7"],
  ])("the coin tick of %d is %s", (coins, tick) => {
    expect(coinTick(coins)).toBe(tick);
  });

  it("names a day by month and day", () => {
    expect(dayTick("2026-11-24")).toBe("11-24");
  });
});
