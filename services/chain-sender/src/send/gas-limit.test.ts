import { ITEM_GAS_NEEDED } from "@sweep/contracts";
import { TRANSACTION_GAS_CAP, gasLimitFromEstimate, gasLimitFromSimulation } from "./gas-limit";

const BLOCK = 30_000_000n;

describe("gas limit", () => {
  it.each([
    // estimate, margin, block gas limit, limit
    [100_000n, 2_000, BLOCK, 120_000n],
    [100_000n, 0, BLOCK, 100_000n],
    [1_000_000n, 2_000, 1_100_000n, 1_100_000n],
    [15_000_000n, 2_000, BLOCK, TRANSACTION_GAS_CAP],
  ])("from an estimate of %s with %s bps in a block of %s is %s", (estimate, margin, block, limit) => {
    expect(gasLimitFromEstimate(estimate, margin, block)).toBe(limit);
  });

  it.each([
    // gasUsed, margin, block gas limit, limit
    [400_000n, 0, BLOCK, 500_000n + ITEM_GAS_NEEDED],
    [400_000n, 2_000, BLOCK, ((500_000n + ITEM_GAS_NEEDED) * 12n) / 10n],
    [3n, 0, BLOCK, 4n + ITEM_GAS_NEEDED],
    [12_000_000n, 2_000, BLOCK, TRANSACTION_GAS_CAP],
    [1_000_000n, 0, 1_000_000n, 1_000_000n],
  ])("from a simulation that used %s with %s bps in a block of %s is %s", (gasUsed, margin, block, limit) => {
    expect(gasLimitFromSimulation(gasUsed, margin, block)).toBe(limit);
  });

  it("covers the gross gas of a batch whose refund took a fifth of it", () => {
    const gross = 5_000_000n;
    const gasUsed = gross - gross / 5n;
    expect(gasLimitFromSimulation(gasUsed, 0, BLOCK)).toBeGreaterThanOrEqual(gross + ITEM_GAS_NEEDED);
  });
});
