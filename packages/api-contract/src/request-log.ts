import { RequestId } from "./request-id";
import { PageCursor, PageLimit } from "./requests";
import { DateTime, NextCursor } from "./scalars";
import { z } from "./zod";

/** How long the request log keeps a request. */
export const REQUEST_LOG_RETENTION_DAYS = 30;

export const RequestLogEntry = z
  .object({
    request_id: RequestId.openapi({ description: "the X-Request-Id the answer carried: yours when you sent one, otherwise the service's req_… id" }),
    method: z.string().openapi({ example: "POST" }),
    route: z.string().openapi({ description: "the endpoint's route template (/v1/sweeps/:id, not the id itself); the path when no endpoint took the request (an unknown path, a malformed body)", example: "/v1/sweeps/:id" }),
    status: z.number().int().openapi({ description: "the HTTP status answered", example: 404 }),
    error_code: z.string().nullable().openapi({ description: "the answer's error.code; null when it was not an error", example: "not_found" }),
    created_at: DateTime.openapi({ description: "when the request arrived" }),
    duration_ms: z.number().int().openapi({ description: "from arrival to the answer's last byte, in milliseconds" }),
  })
  .openapi("RequestLogEntry", { description: "One request of the account as the request log keeps it: never its body, headers or query string." });

export type RequestLogEntry = z.infer<typeof RequestLogEntry>;

export const RequestLogList = z.object({ items: z.array(RequestLogEntry), next_cursor: NextCursor }).openapi("RequestLogList");

export type RequestLogList = z.infer<typeof RequestLogList>;

export const RequestLogListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  status: z
    .string()
    .regex(/^[1-5][0-9]{2}$/, "must be an HTTP status such as 404")
    .transform(Number)
    .optional()
    .openapi({ type: "integer", minimum: 100, maximum: 599, description: "only the requests answered with this status" }),
  error_code: z.string().regex(/^[a-z_]{1,64}$/, "must be an error code such as not_found").optional().openapi({ description: "only the requests answered with this error.code" }),
});

export type RequestLogListQuery = z.infer<typeof RequestLogListQuery>;

/** A request log's row as the database holds it. */
export interface RequestLogRow {
  requestId: string;
  method: string;
  route: string;
  statusCode: number;
  errorCode: string | null;
  createdAt: Date;
  durationMs: number;
}

export function presentRequestLogEntry(row: RequestLogRow): RequestLogEntry {
  return {
    request_id: row.requestId,
    method: row.method,
    route: row.route,
    status: row.statusCode,
    error_code: row.errorCode,
    created_at: row.createdAt.toISOString(),
    duration_ms: row.durationMs,
  };
}
