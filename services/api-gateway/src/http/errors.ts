import { ApiError } from "./api-error";
import type { ErrorRequestHandler } from "express";
import { requestLog } from "./request-log";

/** The router cannot decode a path segment (bad percent-encoding): no resource has such a name. */
function undecodablePath(err: unknown): ApiError | null {
  return err instanceof URIError ? new ApiError("not_found", "the path is not valid percent-encoded UTF-8") : null;
}

/**
 * The last middleware: a typed ApiError becomes its body, its code noted on the access line;
 * anything else is logged with the request's ids and answered 500 internal, without a stack.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const log = requestLog(res);
  const apiError = err instanceof ApiError ? err : undecodablePath(err);
  if (apiError) {
    log.note({ errorCode: apiError.code });
    res.status(apiError.status).json(apiError.toBody());
    return;
  }
  log.note({ errorCode: "internal" });
  log.logger.error("request failed", { method: req.method, path: req.path, err: err instanceof Error ? err.stack : String(err) });
  if (res.headersSent) return;
  res.status(500).json(new ApiError("internal", "internal error; retry later with the same external_id").toBody());
};
