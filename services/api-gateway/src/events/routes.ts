import { EVENT_RETENTION_DAYS, EventListQuery } from "@sweep/api-contract";
import type { Db, Prisma } from "@sweep/db";
import { loadEventBody } from "@sweep/lifecycle";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { eventCursors } from "../lists/cursor";
import { pageOf, parsePageRequest } from "../lists/page";

const DAY_MS = 86_400_000;

/**
 * GET /v1/events: the account's events of the retention window, newest first, each with its data as
 * a delivery would carry it now. Events are recorded whether or not a webhook is set, so this is also
 * how a partner finds those it had no webhook for.
 */
export function eventRoutes(deps: { db: Db; chains: ReadonlyMap<number, unknown> }): Router {
  const router = Router();
  router.get("/v1/events", async (req, res) => {
    const page = parsePageRequest(EventListQuery, req.query, eventCursors, deps.chains);
    const { query } = page;
    const oldest = new Date(Date.now() - EVENT_RETENTION_DAYS * DAY_MS);
    const after = query.created_after ? new Date(query.created_after) : undefined;
    const where: Prisma.EventWhereInput = {
      partnerId: partnerOf(res).partnerId,
      ...(page.below !== null ? { seq: { lt: page.below } } : {}),
      ...(query.type !== undefined ? { type: query.type } : {}),
      createdAt: { gte: after && after > oldest ? after : oldest, ...(query.created_before ? { lt: new Date(query.created_before) } : {}) },
    };
    const rows = await deps.db.event.findMany({ where, orderBy: { seq: "desc" }, take: page.limit + 1, select: { id: true, seq: true, type: true, subjectId: true, payload: true, createdAt: true } });
    const { items, nextCursor } = pageOf(rows, page.limit, eventCursors);
    const bodies = await Promise.all(
      items.map((row) => loadEventBody(deps.db, { eventId: row.id, eventType: row.type, subjectId: row.subjectId, eventCreatedAt: row.createdAt, eventPayload: row.payload })),
    );
    res.json({ items: bodies, next_cursor: nextCursor });
  });
  return router;
}
