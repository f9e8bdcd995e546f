import { presentRequestLogEntry, REQUEST_LOG_RETENTION_DAYS, RequestId, RequestLogListQuery } from "@sweep/api-contract";
import type { Db, Prisma } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { ApiError } from "../http/api-error";
import { requestLogCursors } from "../lists/cursor";
import { pageOf, parsePageRequest } from "../lists/page";
import { requestLogCutoff } from "./request-log-retention";

const entrySelect = { seq: true, requestId: true, method: true, route: true, statusCode: true, errorCode: true, createdAt: true, durationMs: true } as const;

/**
 * The request log: a partner looks up a request by the X-Request-Id its answer carried. Entries
 * older than the retention window are hidden even before the retention job deletes them.
 */
export function requestLogRoutes(deps: { db: Db; chains: ReadonlyMap<number, unknown> }): Router {
  const router = Router();
  router.get("/v1/requests", async (req, res) => {
    const page = parsePageRequest(RequestLogListQuery, req.query, requestLogCursors, deps.chains);
    const { query } = page;
    const where: Prisma.RequestLogEntryWhereInput = {
      partnerId: partnerOf(res).partnerId,
      createdAt: { gte: requestLogCutoff(new Date()) },
      ...(page.below !== null ? { seq: { lt: page.below } } : {}),
      ...(query.status !== undefined ? { statusCode: query.status } : {}),
      ...(query.error_code !== undefined ? { errorCode: query.error_code } : {}),
    };
    const rows = await deps.db.requestLogEntry.findMany({ where, orderBy: { seq: "desc" }, take: page.limit + 1, select: entrySelect });
    const { items, nextCursor } = pageOf(rows, page.limit, requestLogCursors);
    res.json({ items: items.map(presentRequestLogEntry), next_cursor: nextCursor });
  });

  router.get("/v1/requests/:request_id", async (req, res) => {
    const requestId = req.params.request_id;
    // An id the gateway would never have answered names no request: 404 without a query.
    const entry = RequestId.safeParse(requestId).success
      ? await deps.db.requestLogEntry.findFirst({
          where: { partnerId: partnerOf(res).partnerId, requestId, createdAt: { gte: requestLogCutoff(new Date()) } },
          // A partner may send one X-Request-Id more than once: the newest.
          orderBy: { seq: "desc" },
          select: entrySelect,
        })
      : null;
    if (!entry) throw new ApiError("not_found", `no such request in the account's last ${REQUEST_LOG_RETENTION_DAYS} days`);
    res.json(presentRequestLogEntry(entry));
  });
  return router;
}
