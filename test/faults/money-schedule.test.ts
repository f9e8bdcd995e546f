import { LEAD_MS, TAIL_MS } from "./fault-schedule";
import { describeMoneyMove, moneySchedule, type MoneyMove, type MoneyOptions } from "./money-schedule";
import { seededRandom } from "@sweep/testkit";

const OPTIONS: MoneyOptions = { windowMs: 240_000, withdrawals: 3, partners: ["alpha", "beta"], chainIds: [97, 11155111] };

describe("the money moves of a fault run", () => {
  it.each([0, 1, 7, 42, 2 ** 32 - 1])("with seed %i: withdrawals after the first quarter, each in its own part, and one alert in the first half", (seed) => {
    const moves = moneySchedule(seededRandom(seed), OPTIONS);
    const withdrawals = moves.filter((m) => m.kind === "withdraw").map((m) => m.atMs);
    const partMs = (OPTIONS.windowMs - TAIL_MS - OPTIONS.windowMs / 4) / OPTIONS.withdrawals;
    expect(withdrawals).toHaveLength(3);
    withdrawals.forEach((atMs, i) => {
      expect(atMs).toBeGreaterThanOrEqual(OPTIONS.windowMs / 4 + i * partMs);
      expect(atMs).toBeLessThanOrEqual(OPTIONS.windowMs / 4 + (i + 0.5) * partMs);
    });
    const alerts = moves.filter((m): m is Extract<MoneyMove, { kind: "balance-alert" }> => m.kind === "balance-alert");
    expect(alerts).toEqual([{ kind: "balance-alert", atMs: expect.any(Number), partner: expect.any(String), chainId: expect.any(Number) }]);
    expect(alerts[0]!.atMs).toBeGreaterThanOrEqual(LEAD_MS);
    expect(alerts[0]!.atMs).toBeLessThanOrEqual(OPTIONS.windowMs / 2);
    expect(OPTIONS.partners).toContain(alerts[0]!.partner);
    expect(OPTIONS.chainIds).toContain(alerts[0]!.chainId);
    expect(moves.map((m) => m.atMs)).toEqual([...moves.map((m) => m.atMs)].sort((a, b) => a - b));
  });

  it("draws the same moves from the same seed, and other moments from other seeds", () => {
    expect(moneySchedule(seededRandom(5), OPTIONS)).toEqual(moneySchedule(seededRandom(5), OPTIONS));
    expect(new Set([1, 2, 3].map((seed) => JSON.stringify(moneySchedule(seededRandom(seed), OPTIONS)))).size).toBe(3);
  });

  it.each<[MoneyMove, string]>([
    [{ kind: "withdraw", atMs: 1 }, "the operator withdraws the fees due (sweepctl fees withdraw)"],
    [{ kind: "balance-alert", atMs: 1, partner: "alpha", chainId: 97 }, "alpha sets a low-balance alert on chain 97 at its gas wallet's balance"],
  ])("describes %o", (move, line) => {
    expect(describeMoneyMove(move)).toBe(line);
  });
});
