import { existsSync } from "node:fs";
import path from "node:path";
import { ApiError } from "../http/api-error";
import { pageHeaders } from "../http/page-headers";
import type { Logger } from "@sweep/common";
import express, { Router } from "express";

/** Where `pnpm prepare-workspace` builds the console's pages (packages/console-ui). */
export const DEFAULT_CONSOLE_DIST = path.resolve(__dirname, "../../../../packages/console-ui/dist");

/** The built pages run only the bundle's own scripts and styles, fetch only this origin, and are never framed. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/** Every answer under /console, pages and console API alike. */
export const consoleHeaders = pageHeaders(CONSOLE_CSP);

/**
 * The console's built pages at /console: files as they are (Vite's hashed assets cached for a
 * year), and index.html, never cached, for every other page path (the pages route in the browser).
 * Before the pages are built, /console is 404 not_found in the API's error shape, logged once.
 */
export function consolePages(distDir: string, logger: Logger): Router {
  const router = Router();
  const index = path.join(distDir, "index.html");
  let missingLogged = false;

  router.use("/console/assets", express.static(path.join(distDir, "assets"), { index: false, fallthrough: true, immutable: true, maxAge: "365d" }));
  router.use("/console", express.static(distDir, { index: false, fallthrough: true, redirect: false, maxAge: 0 }));
  router.get("/console{/*page}", (req, res, next) => {
    if (req.path === "/console/api" || req.path.startsWith("/console/api/")) return next();
    if (!existsSync(index)) {
      if (!missingLogged) logger.warn("the console's pages are not built: /console answers 404 until `pnpm prepare-workspace` builds them", { distDir });
      missingLogged = true;
      throw new ApiError("not_found", "the console is not built on this server");
    }
    res.set("Cache-Control", "no-store").sendFile(index);
  });

  return router;
}
