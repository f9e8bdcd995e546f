import { PollingLoop } from "@sweep/worker";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { findDueHotWallets } from "./due-work";
import { findDueRevocationPartners } from "./revocation-work";
import { revocationRoundKey } from "./round-keys";

export interface DuePoller {
  /** Ends the loop after the pass under way (its rounds included). */
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, asks for a round for each hot wallet of the chain with due sweeps and no
 * batch in flight, and for each partner with due revocations on the chain and no revocation batch
 * being prepared, so no sweep or revocation waits forever for a message that was lost, a retry
 * pause that ended without one, or a batch that left preparation (nothing else announces that for
 * revocations). A pass waits for its rounds, so a slow chain slows only its own poll.
 */
export function startDuePoller(options: { db: Db; chainId: number; intervalMs: number; request: (key: string) => Promise<void>; logger: Logger }): DuePoller {
  const { db, chainId, intervalMs, request } = options;
  const logger = options.logger.child({ chainId, poller: "due work" });
  const loop = new PollingLoop({
    name: "due_work",
    intervalMs,
    round: async (stopping) => {
      const now = new Date();
      const hotWallets = await findDueHotWallets(db, chainId, now);
      const partners = await findDueRevocationPartners(db, chainId, now);
      if (hotWallets.length > 0 || partners.length > 0) logger.debug("due work found", { hotWallets: hotWallets.length, revocationPartners: partners.length });
      const keys = [...hotWallets, ...partners.map((partnerId) => revocationRoundKey(partnerId, chainId))];
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
