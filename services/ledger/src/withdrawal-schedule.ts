import { PollingLoop } from "@sweep/worker";
import type { Environment, Logger } from "@sweep/common";
import { createWithdrawalBatches, type Db } from "@sweep/db";
import { openAnnouncedBatch } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";

export interface WithdrawalScheduleOptions {
  db: Db;
  environment: Environment;
  chainIds: readonly number[];
  names: QueueNames;
  /** between runs, the first one interval after start; 0 turns the schedule off */
  intervalMs: number;
  /** the run wrote batch.ready messages to the outbox */
  outboxWritten: () => void;
  logger: Logger;
}

export interface WithdrawalSchedule {
  /** Ends the schedule after the run under way. */
  stop(): Promise<void>;
}

/**
 * The scheduled fee withdrawals: every `intervalMs`, a withdrawal batch for each gas wallet of
 * the environment with fees due on a chain and no withdrawal there under way. Not at start: a
 * service that restarts often would otherwise withdraw at every start.
 */
export function startWithdrawalSchedule(options: WithdrawalScheduleOptions): WithdrawalSchedule {
  const { db, environment, chainIds, names, intervalMs } = options;
  const logger = options.logger.child({ loop: "withdrawals" });
  if (intervalMs === 0) {
    logger.info("scheduled fee withdrawals are off (WITHDRAW_INTERVAL_MS=0)");
    return { stop: async () => undefined };
  }
  const loop = new PollingLoop({
    name: "withdrawals",
    intervalMs,
    pauseFirst: true,
    round: async () => {
      const created = await createWithdrawalBatches(db, {
        environment,
        chainIds,
        openBatch: (tx, batch) => openAnnouncedBatch(tx, names, batch),
      });
      if (created.length > 0) options.outboxWritten();
      for (const c of created) logger.info("fee withdrawal batch created", { batchId: c.batchId, partnerId: c.partnerId, chainId: c.chainId, feesDue: c.feesDue.toString() });
      if (created.length === 0) logger.debug("no fees to withdraw");
    },
    failed: (err) => logger.error("scheduled fee withdrawal failed; next run in one interval", { error: err instanceof Error ? err.message : String(err) }),
  });
  loop.start();
  return { stop: () => loop.stop() };
}
