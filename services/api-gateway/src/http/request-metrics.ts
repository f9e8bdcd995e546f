import { httpRequestDuration } from "@sweep/metrics";
import type { Request, RequestHandler } from "express";
import { routeTemplate } from "./route-template";

/** The route template that took the request, or "unmatched" when none did (an unknown path, a bad key, a malformed body). */
export function routeLabel(req: Pick<Request, "baseUrl" | "route">): string {
  return routeTemplate(req) ?? "unmatched";
}

/**
 * One histogram observation per request, when its response has been sent (a client that went away
 * before is not timed): cheap enough in front of POST /v1/sweeps at a thousand a second.
 */
export const requestMetrics: RequestHandler = (req, res, next) => {
  const startedAt = performance.now();
  res.once("finish", () => {
    httpRequestDuration.observe({ method: req.method, route: routeLabel(req), status: res.statusCode }, (performance.now() - startedAt) / 1000);
  });
  next();
};
