import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { findDueHotWallets } from "./due-work";

export interface DuePoller {
  /** Ends the loop after the pass under way (its rounds included). */
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, asks for a round for each hot wallet of the chain with due sweeps and no
 * batch in flight, so no sweep waits forever for a message that was lost or a retry pause that
 * ended without one. A pass waits for its rounds, so a slow chain slows only its own poll.
 */
export function startDuePoller(options: { db: Db; chainId: number; intervalMs: number; request: (hotWalletId: string) => Promise<void>; logger: Logger }): DuePoller {
  const { db, chainId, intervalMs, request } = options;
  const logger = options.logger.child({ chainId, poller: "due sweeps" });
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        const hotWallets = await findDueHotWallets(db, chainId, new Date());
        if (hotWallets.length > 0) logger.debug("due sweeps found", { hotWallets: hotWallets.length });
        const rounds = await Promise.allSettled(hotWallets.map((id) => request(id)));
        rounds.forEach((round, i) => {
          if (round.status === "rejected" && !stopping.signal.aborted) logger.error("batch round failed", { hotWalletId: hotWallets[i], error: String(round.reason) });
        });
      } catch (err) {
        logger.error("poll for due sweeps failed", { error: String(err) });
      }
      await sleep(intervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      await loop;
    },
  };
}
