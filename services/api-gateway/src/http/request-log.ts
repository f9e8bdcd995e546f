import { randomBytes } from "node:crypto";
import { REQUEST_ID_HEADER, RequestId } from "@sweep/api-contract";
import type { Logger } from "@sweep/common";
import type { Request, RequestHandler, Response } from "express";
import { partnerIdOf } from "../auth/authenticate";
import { routeTemplate } from "./route-template";

/**
 * The request's id: the caller's X-Request-Id when it is well formed (a partner or a proxy in front
 * can then quote the id it chose), otherwise a new one.
 */
export function requestIdFor(incoming: string | undefined, newId: () => string = newRequestId): string {
  return incoming !== undefined && RequestId.safeParse(incoming).success ? incoming : newId();
}

const ID_BYTES = 12;
/** Random bytes for 256 ids at a time: one call to the system's generator instead of one a request. */
let idBytes = Buffer.alloc(0);
let idOffset = 0;

/** 96 random bits: no two requests of the suite's lifetime share one. */
export function newRequestId(): string {
  if (idOffset + ID_BYTES > idBytes.length) {
    idBytes = randomBytes(ID_BYTES * 256);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return `req_${idBytes.toString("base64url", idOffset - ID_BYTES, idOffset)}`;
}

/** One request's log: its id, a logger for its handlers, and fields its access line adds. */
export interface RequestLog {
  readonly requestId: string;
  /** lines carry requestId, and partnerId once the key was checked */
  readonly logger: Logger;
  /** fields of the request's access line, e.g. the ids of what it created or the error code it answered */
  note(fields: Record<string, unknown>): void;
  /** the error code the error handler answered (noted as errorCode), if any */
  readonly errorCode: string | undefined;
}

class OpenRequestLog implements RequestLog {
  readonly notes: Record<string, unknown> = {};

  constructor(
    readonly requestId: string,
    private readonly base: Logger,
    private readonly res: Response,
  ) {}

  get logger(): Logger {
    return this.base.child(this.ids());
  }

  note(fields: Record<string, unknown>): void {
    Object.assign(this.notes, fields);
  }

  get errorCode(): string | undefined {
    const code = this.notes.errorCode;
    return typeof code === "string" ? code : undefined;
  }

  ids(): { requestId: string; partnerId?: string } {
    const partnerId = partnerIdOf(this.res);
    return partnerId === undefined ? { requestId: this.requestId } : { requestId: this.requestId, partnerId };
  }
}

/** The log `requestLogging` opened for this request. */
export function requestLog(res: Response): RequestLog {
  const log = res.locals.requestLog as RequestLog | undefined;
  if (!log) throw new Error("requestLogging is not installed in front of this handler");
  return log;
}

/**
 * The first middleware: gives each request its id (answered as X-Request-Id) and logs one line
 * when its response is done. Nothing heavier per request: POST /v1/sweeps runs at a thousand a second.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    const log = new OpenRequestLog(requestIdFor(req.get(REQUEST_ID_HEADER)), logger, res);
    res.setHeader(REQUEST_ID_HEADER, log.requestId);
    res.locals.requestLog = log;
    // "close" comes for every response, also when the client went away before it was sent.
    res.once("close", () => {
      const aborted = res.writableFinished ? {} : { aborted: true };
      const durationMs = Math.round((performance.now() - startedAt) * 10) / 10;
      logger.info("request", { ...log.notes, ...log.ids(), method: req.method, ...routeOf(req), status: res.statusCode, durationMs, ...aborted });
    });
    next();
  };
}

/** The matched route's template, so that lines group by endpoint; an unmatched request has only its path, cut short. */
function routeOf(req: Request): { route: string } | { route: null; path: string } {
  const route = routeTemplate(req);
  return route !== undefined ? { route } : { route: null, path: req.path.slice(0, 200) };
}
