/**
 * Carries out the money moves against a running stack at their moments, beside the faults: a
 * withdrawal runs sweepctl as an operator does; the alert is the partner's PUT /v1/webhook, sent
 * again after no answer or a 5xx, as the partner's other requests are.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { MoneyMove } from "./money-schedule";

export interface CreatedWithdrawal {
  batchId: string;
  partnerId: string;
  chainId: number;
  feesDue: bigint;
}

export interface PerformedMove {
  move: MoneyMove;
  /** ms after the load started */
  atMs: number;
  /** what went wrong doing it */
  error?: string;
  /** the withdrawal batches `fees withdraw` created */
  withdrawals?: CreatedWithdrawal[];
  /** the alert's threshold, wei */
  threshold?: bigint;
}

export interface MoneyTargets {
  sweepctl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  gasBalance(partner: string, chainId: number): Promise<bigint>;
  /** the partner's PUT /v1/webhook (its URL unchanged) with these alerts: the status; rejects when nothing answered */
  putWebhook(partner: string, lowBalance: Array<{ chain_id: number; threshold: string }>): Promise<number>;
}

/** How long the partner keeps sending its alert while the API does not answer. */
const ALERT_DEADLINE_MS = 60_000;

/** Resolves once every move is done, each recorded, never rejecting: a move that went wrong carries its error. */
export async function performMoneyMoves(moves: readonly MoneyMove[], targets: MoneyTargets, loadStartedAt: number): Promise<PerformedMove[]> {
  const performed = await Promise.all(
    moves.map(async (move): Promise<PerformedMove> => {
      await sleep(Math.max(0, loadStartedAt + move.atMs - Date.now()));
      const atMs = Date.now() - loadStartedAt;
      try {
        return move.kind === "withdraw" ? { move, atMs, withdrawals: await withdraw(targets) } : { move, atMs, threshold: await setAlert(targets, move.partner, move.chainId) };
      } catch (err) {
        return { move, atMs, error: String(err).slice(0, 2_000) };
      }
    }),
  );
  return performed.sort((a, b) => a.atMs - b.atMs);
}

async function withdraw(targets: MoneyTargets): Promise<CreatedWithdrawal[]> {
  const run = await targets.sweepctl(["--json", "fees", "withdraw"]);
  if (run.code !== 0) throw new Error(`sweepctl fees withdraw exited with ${run.code}: ${run.stderr.trim()}`);
  const { withdrawals } = JSON.parse(run.stdout) as { withdrawals: Array<{ batch_id: string; partner_id: string; chain_id: number; fees_due: string }> };
  return withdrawals.map((w) => ({ batchId: w.batch_id, partnerId: w.partner_id, chainId: w.chain_id, feesDue: BigInt(w.fees_due) }));
}

/** The alert at the gas wallet's balance now: set, it waits for the next gas the wallet spends. */
async function setAlert(targets: MoneyTargets, partner: string, chainId: number): Promise<bigint> {
  const threshold = await targets.gasBalance(partner, chainId);
  const deadline = Date.now() + ALERT_DEADLINE_MS;
  for (let tries = 1; ; tries++) {
    const status = await targets.putWebhook(partner, [{ chain_id: chainId, threshold: threshold.toString() }]).catch(() => undefined);
    if (status === 200) return threshold;
    if (status !== undefined && status < 500) throw new Error(`PUT /v1/webhook answered ${status}`);
    if (Date.now() > deadline) throw new Error(`PUT /v1/webhook unanswered after ${tries} tries`);
    await sleep(Math.min(2_000, 100 * 2 ** tries));
  }
}
