import { REQUEST_LOG_RETENTION_DAYS } from "@sweep/api-contract";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { PollingLoop } from "@sweep/worker";

const DAY_MS = 86_400_000;

/** The oldest time the request log still holds at `now`. */
export function requestLogCutoff(now: Date): Date {
  return new Date(now.getTime() - REQUEST_LOG_RETENTION_DAYS * DAY_MS);
}

/**
 * Deletes up to `batch` entries older than the retention window, oldest first; resolves to how many.
 * SKIP LOCKED: gateways that run it at once delete different rows, none waits for another, so
 * every gateway runs it and none need be elected.
 */
export async function deleteExpiredRequestLog(db: Db, now: Date, batch: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM request_log WHERE seq IN (
      SELECT seq FROM request_log WHERE created_at < ${requestLogCutoff(now)} ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
    )`;
}

export interface RequestLogRetention {
  /** Ends the deletions after the batch under way. */
  stop(): Promise<void>;
}

const DELETE_BATCH = 5_000;

/**
 * Every `intervalMs`, the request log's entries older than its 30 days are deleted, in batches
 * short enough not to hold locks for long: a full batch runs the next at once.
 */
export function startRequestLogRetention(options: { db: Db; intervalMs: number; logger: Logger }): RequestLogRetention {
  const loop = new PollingLoop({
    name: "request_log_retention",
    intervalMs: options.intervalMs,
    round: async () => ((await deleteExpiredRequestLog(options.db, new Date(), DELETE_BATCH)) === DELETE_BATCH ? "again" : "idle"),
    failed: (err) => options.logger.warn("request log retention failed; next run in one interval", { error: err instanceof Error ? err.message : String(err) }),
  });
  loop.start();
  return { stop: () => loop.stop() };
}
