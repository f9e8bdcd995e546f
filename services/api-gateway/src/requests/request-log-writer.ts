import type { Logger } from "@sweep/common";
import type { Pool } from "pg";
import { RequestLogBuffer } from "./request-log-buffer";
import type { RequestLogEntry } from "./request-log-entry";

/**
 * The gateway's request log: entries written to Postgres through pg (as the hot path's inserts
 * are), in batches of up to 500 at most 250 ms after their responses; 20,000 held at most, some
 * ten seconds of the API's full rate, before entries are dropped.
 */
export function requestLogWriter(pool: Pool, logger: Logger): RequestLogBuffer {
  return new RequestLogBuffer({
    write: (entries) => insertRequestLog(pool, entries),
    flushAfterMs: 250,
    batchSize: 500,
    maxEntries: 20_000,
    writeFailed: (err, lost) => logger.warn("request log batch not written; its requests cannot be looked up", { lost, error: err instanceof Error ? err.message : String(err) }),
  });
}

/**
 * A batch of entries in one INSERT of one row per element of its arrays: one round trip and a
 * statement of the same text whatever the batch's size, so it is parsed and planned once per connection.
 */
const INSERT_ENTRIES = `
INSERT INTO request_log (partner_id, request_id, method, route, status_code, error_code, duration_ms, created_at)
SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::timestamptz[])`;

export async function insertRequestLog(pool: Pool, entries: readonly RequestLogEntry[]): Promise<void> {
  await pool.query({
    name: "insert-request-log",
    text: INSERT_ENTRIES,
    values: [
      entries.map((e) => e.partnerId),
      entries.map((e) => e.requestId),
      entries.map((e) => e.method),
      entries.map((e) => e.route),
      entries.map((e) => e.status),
      entries.map((e) => e.errorCode),
      entries.map((e) => e.durationMs),
      entries.map((e) => e.createdAt),
    ],
  });
}
