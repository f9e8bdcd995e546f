import { ApiError } from "../http/api-error";
import type { Db } from "@sweep/db";
import { Router } from "express";
import type { z } from "zod";
import { partnerOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { parseRequest, type ValidationCodes } from "../http/validation";
import type { CursorCodec } from "../lists/cursor";
import { parsePageRequest, type Page, type PagedQuery, type PageRequest } from "../lists/page";

/** What POST answers: 202 for new work, 200 for the existing one of the request's external_id. */
export interface WorkCreation<View> {
  status: 200 | 202;
  view: View;
}

/**
 * A kind of work a partner asks for (a sweep, a revocation): what its three routes need of it. The
 * routes themselves are the same for every kind, so that the kinds answer alike.
 */
export interface WorkResource<Body, ListQuery extends PagedQuery, View> {
  /** the collection, e.g. /v1/sweeps; one is read at `${path}/:id` */
  path: string;
  body: z.ZodType<Body>;
  /** the spec's 422 codes of the body's fields, in the order the spec lists them */
  valueCodes: ValidationCodes["valueCodes"];
  /** the checks after the schema, then the row and its outbox message */
  create(partnerId: string, body: Body): Promise<WorkCreation<View>>;
  listQuery: z.ZodType<ListQuery>;
  cursors: CursorCodec;
  list(db: Db, partnerId: string, page: PageRequest<ListQuery>): Promise<Page<View>>;
  /** null for an id that names none of the account's */
  find(db: Db, partnerId: string, id: string): Promise<View | null>;
  present(view: View): object;
  /** the ids POST adds to its access line */
  logNote(view: View): Record<string, unknown>;
  /** GET by id's 404 message */
  notFound: string;
}

export interface WorkRoutesDeps {
  db: Db;
  chains: ReadonlyMap<number, unknown>;
  /** the outbox has rows to publish */
  onOutbox: () => void;
}

/** POST to create one, GET to list them newest first, GET by id. */
export function workRoutes<Body, ListQuery extends PagedQuery, View>(deps: WorkRoutesDeps, kind: WorkResource<Body, ListQuery, View>): Router {
  const router = Router();
  const bodyCodes: ValidationCodes = { shapeCode: "invalid_json", noun: "field", valueCodes: kind.valueCodes };

  router.post(kind.path, async (req, res) => {
    const body = parseRequest(kind.body, req.body, bodyCodes);
    const { status, view } = await kind.create(partnerOf(res).partnerId, body);
    if (status === 202) deps.onOutbox();
    requestLog(res).note(kind.logNote(view));
    res.status(status).json(kind.present(view));
  });

  router.get(kind.path, async (req, res) => {
    const page = await kind.list(deps.db, partnerOf(res).partnerId, parsePageRequest(kind.listQuery, req.query, kind.cursors, deps.chains));
    res.json({ items: page.items.map((view) => kind.present(view)), next_cursor: page.nextCursor });
  });

  router.get(`${kind.path}/:id`, async (req, res) => {
    const view = await kind.find(deps.db, partnerOf(res).partnerId, req.params.id);
    if (!view) throw new ApiError("not_found", kind.notFound);
    res.json(kind.present(view));
  });

  return router;
}
