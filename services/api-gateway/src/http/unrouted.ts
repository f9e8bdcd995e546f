import { ApiError } from "./api-error";
import type express from "express";
import type { RequestHandler } from "express";

interface Layer {
  route?: { methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  match(path: string): boolean;
}

/** The methods the app's routes answer on this path (HEAD with GET, as express serves it), upper case and sorted. */
export function allowedMethods(app: express.Express, path: string): string[] {
  const methods = new Set<string>();
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        if (!matches(layer, path)) continue;
        for (const method of Object.keys(layer.route.methods)) methods.add(method.toUpperCase());
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

function matches(layer: Layer, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    // A path segment that does not decode names no resource.
    return false;
  }
}

function refusal(app: express.Express, req: express.Request, res: express.Response): ApiError {
  const allow = allowedMethods(app, req.path);
  if (allow.length === 0) return new ApiError("not_found", `no such endpoint: ${req.method} ${req.path}`);
  // 404 not_found, not 405: partners branch on the spec's codes, and this one is in its table; Allow still says what is served.
  res.set("Allow", allow.join(", "));
  return new ApiError("not_found", `${req.method} is not a method of ${req.path}; it answers ${allow.join(", ")}`);
}

/**
 * Before the routes: express's routers answer OPTIONS themselves in text/plain, so it is refused
 * here, in the spec's error shape (no browser calls this API, so there is no CORS preflight to serve).
 */
export function refuseOptions(app: express.Express): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "OPTIONS") return next();
    next(refusal(app, req, res));
  };
}

/** After the routes: an unknown path, or a method the path does not have, is 404 not_found in the spec's shape. */
export function notFound(app: express.Express): RequestHandler {
  return (req, res, next) => next(refusal(app, req, res));
}
