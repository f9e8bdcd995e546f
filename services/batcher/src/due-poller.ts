import { PollingLoop } from "@sweep/worker";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { findDueHotWallets } from "./due-work";
import { nextDueAt } from "./next-due";
import { findDueRevocationPartners } from "./revocation-work";
import { revocationRoundKey } from "./round-keys";

export interface DuePoller {
  /** Ends the loop after the pass under way (its rounds included). */
  stop(): Promise<void>;
}

/**
 * A poll that found nothing due rests longer, doubling up to this (never below the interval): the
 * messages (sweep.queued, hot_wallet.wake, revocation.queued) start every round, and the poll is the
 * safety net for one that was lost, which it then finds this late at most (docs/decisions.md).
 */
export const DUE_POLL_IDLE_MAX_MS = 10_000;

/**
 * Every `intervalMs`, asks for a round for each hot wallet of the chain with due sweeps and no
 * batch in flight, and for each partner with due revocations on the chain and no revocation batch
 * being prepared, so no sweep or revocation waits forever for a message that was lost, a retry
 * pause that ended without one, or a batch that left preparation without its wake. A poll that
 * finds nothing rests longer (DUE_POLL_IDLE_MAX_MS), but no later than the end of the earliest
 * retry pause. A pass waits for its rounds, so a slow chain slows only its own poll.
 */
export function startDuePoller(options: { db: Db; chainId: number; intervalMs: number; request: (key: string) => Promise<void>; logger: Logger }): DuePoller {
  const { db, chainId, intervalMs, request } = options;
  const logger = options.logger.child({ chainId, poller: "due work" });
  const loop = new PollingLoop({
    name: "due_work",
    intervalMs,
    idleMaxMs: Math.max(intervalMs, DUE_POLL_IDLE_MAX_MS),
    round: async (stopping) => {
      const now = new Date();
      const hotWallets = await findDueHotWallets(db, chainId, now);
      const partners = await findDueRevocationPartners(db, chainId, now);
      if (hotWallets.length > 0 || partners.length > 0) logger.debug("due work found", { hotWallets: hotWallets.length, revocationPartners: partners.length });
      const keys = [...hotWallets, ...partners.map((partnerId) => revocationRoundKey(partnerId, chainId))];
      if (keys.length === 0) {
        const dueAt = await nextDueAt(db, chainId, now);
        return dueAt === null ? "idle" : { idleUntil: dueAt.getTime() };
      }
      const rounds = await Promise.allSettled(keys.map((key) => request(key)));
      rounds.forEach((round, i) => {
        if (round.status === "rejected" && !stopping.aborted) logger.error("batch round failed", { round: keys[i], error: String(round.reason) });
      });
    },
    failed: (err) => logger.error("poll for due work failed", { error: String(err) }),
  });
  loop.start();
  return { stop: () => loop.stop() };
}
