import type { RequestHandler } from "express";

/** The headers of every answer under a path of pages a browser opens: the pages' own CSP, no MIME sniffing, no referrer sent on. */
export function pageHeaders(contentSecurityPolicy: string): RequestHandler {
  return (_req, res, next) => {
    res.set({ "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" });
    next();
  };
}
