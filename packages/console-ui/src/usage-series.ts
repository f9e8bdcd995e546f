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
