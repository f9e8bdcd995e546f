import { usageSeries } from "./usage-series";

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
