import { LEAD_MS, TAIL_MS } from "./fault-schedule";
import type { Random } from "@sweep/testkit";

/** Money moved during the load besides the sweeps, at a moment counted from the start of the load. */
export type MoneyMove =
  /** the operator runs `sweepctl fees withdraw`: each gas wallet's fees due go to its chain's treasury */
  | { kind: "withdraw"; atMs: number }
  /** the partner sets a low-balance alert at its gas wallet's balance on the chain: the next gas it spends takes it below */
  | { kind: "balance-alert"; atMs: number; partner: string; chainId: number };

export interface MoneyOptions {
  /** how long the load runs */
  windowMs: number;
  withdrawals: number;
  partners: readonly string[];
  chainIds: readonly number[];
}

/**
 * Withdrawals start once a quarter of the load has run (sweeps have left fees to withdraw), one in
 * each equal part of the rest at a random moment of the part's first half: the one before has
 * long been booked, so none finds the last one under way. The alert comes in the load's first
 * half, so the fall it waits for and its delivery meet the faults.
 */
export function moneySchedule(random: Random, options: MoneyOptions): MoneyMove[] {
  const { windowMs, withdrawals, partners, chainIds } = options;
  const firstMs = windowMs / 4;
  const partMs = (windowMs - TAIL_MS - firstMs) / withdrawals;
  const moves: MoneyMove[] = Array.from({ length: withdrawals }, (_, i) => ({ kind: "withdraw", atMs: Math.round(firstMs + i * partMs + random.next() * partMs * 0.5) }));
  moves.push({ kind: "balance-alert", atMs: random.int(LEAD_MS, windowMs / 2), partner: random.pick(partners), chainId: random.pick(chainIds) });
  return moves.sort((a, b) => a.atMs - b.atMs);
}

/** One line per move for the printed figures. */
export function describeMoneyMove(move: MoneyMove): string {
  switch (move.kind) {
    case "withdraw":
      return "the operator withdraws the fees due (sweepctl fees withdraw)";
    case "balance-alert":
      return `${move.partner} sets a low-balance alert on chain ${move.chainId} at its gas wallet's balance`;
  }
}
