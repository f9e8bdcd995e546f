import type { RequestHandler } from "express";
import { partnerIdOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { routeTemplate } from "../http/route-template";

/** One row of the request log: what a request was and how it was answered, never its body, headers or query string. */
export interface RequestLogEntry {
  partnerId: string;
  requestId: string;
  method: string;
  /** the route's template; the path (without its query) when no route took the request */
  route: string;
  status: number;
  /** the spec's error.code of an error answer */
  errorCode: string | null;
  durationMs: number;
  /** when the request arrived */
  createdAt: Date;
}

/** Where entries go once their response is sent (RequestLogBuffer). */
export interface RequestLogSink {
  add(entry: RequestLogEntry): void;
}

/** What the recording middleware knows of an answered request. */
export interface AnsweredRequest {
  partnerId: string | undefined;
  requestId: string;
  method: string;
  route: string | undefined;
  path: string;
  status: number;
  errorCode: string | undefined;
  startedAt: Date;
  elapsedMs: number;
}

/** The longest path kept for a request no route took: a path is the caller's to make up. */
const MAX_PATH_LENGTH = 200;

/** The request's row, or null for a request no partner made (a missing or refused key, /healthz, the console's pages). */
export function requestLogEntry(answered: AnsweredRequest): RequestLogEntry | null {
  if (answered.partnerId === undefined) return null;
  return {
    partnerId: answered.partnerId,
    requestId: answered.requestId,
    method: answered.method,
    route: answered.route ?? answered.path.slice(0, MAX_PATH_LENGTH),
    status: answered.status,
    errorCode: answered.errorCode ?? null,
    durationMs: Math.round(answered.elapsedMs),
    createdAt: answered.startedAt,
  };
}

/**
 * After `requestLogging`: each partner's request goes to the sink once its response is sent. The
 * sink only queues it, so recording adds no database round trip to any request; a request whose
 * client went away before its answer was sent is not recorded.
 */
export function recordRequests(sink: RequestLogSink): RequestHandler {
  return (req, res, next) => {
    const startedAt = new Date();
    const started = performance.now();
    res.once("finish", () => {
      const log = requestLog(res);
      const entry = requestLogEntry({
        partnerId: partnerIdOf(res),
        requestId: log.requestId,
        method: req.method,
        route: routeTemplate(req),
        path: req.path,
        status: res.statusCode,
        errorCode: log.errorCode,
        startedAt,
        elapsedMs: performance.now() - started,
      });
      if (entry) sink.add(entry);
    });
    next();
  };
}
