import type { Schemas } from "./api";
import { unitsForChart } from "./format";

/** One day of one chain as a chart draws it: counts as they are, wei as coins. */
export interface UsagePoint {
  date: string;
  done: number;
  failed: number;
  rejected: number;
  gas: number;
  fees: number;
}

/** The usage rows of one chain, oldest first, as chart points. */
export function usageSeries(days: Schemas["UsageDay"][], chainId: number): UsagePoint[] {
  return days
    .filter((day) => day.chain_id === chainId)
    .map((day) => ({
      date: day.date,
      done: day.sweeps_done,
      failed: day.sweeps_failed,
      rejected: day.sweeps_rejected,
      gas: unitsForChart(day.gas_spent),
      fees: unitsForChart(day.fees),
    }));
}

/** Whether a chain's days show nothing to draw: no sweep, revocation, gas or fee in any. */
export function quietSeries(days: Schemas["UsageDay"][], chainId: number): boolean {
  return days.filter((day) => day.chain_id === chainId).every((day) => day.sweeps_done + day.sweeps_failed + day.sweeps_rejected + day.revocations_done === 0 && day.gas_spent === "0" && day.fees === "0");
}

/** A chart's day tick: month and day (the year is in the caption's range). */
export function dayTick(date: string): string {
  return date.slice(5);
}

/** A chart's coin tick, short enough for the axis: at most four significant digits. */
export function coinTick(coins: number): string {
  const text = coins.toPrecision(4);
  return text.includes(".") ? text.replace(/0+(e|$)/, "$1").replace(/\.(e|$)/, "$1") : text;
}
