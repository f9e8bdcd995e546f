import type { Request } from "express";

/**
 * The template of the route that took the request, under its router's mount path (e.g.
 * /v1/sweeps/:id), or undefined when none did (an unknown path, or a request refused before
 * routing). Lines and series group by it; the raw path would make each id a group of its own.
 */
export function routeTemplate(req: Pick<Request, "baseUrl" | "route">): string | undefined {
  const path: unknown = req.route?.path;
  return typeof path === "string" ? `${req.baseUrl}${path}` : undefined;
}
