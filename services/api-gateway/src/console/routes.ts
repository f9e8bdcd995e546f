import type { Environment, Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { Router, type RequestHandler } from "express";
import type Redis from "ioredis";
import { jsonBody } from "../http/json-body";
import { keyRoutes } from "./key-routes";
import { ledgerCsvRoutes } from "./ledger-csv";
import { consoleHeaders, consolePages } from "./pages";
import { consoleAuthenticate } from "./session-auth";
import type { ConsoleSessions } from "./session-store";
import { signInRoutes } from "./sign-in-routes";

export interface ConsoleDeps {
  db: Db;
  redis: Redis;
  logger: Logger;
  environment: Environment;
  chains: ReadonlyMap<number, { nativeTicker: string }>;
  sessions: ConsoleSessions;
  /** the per-address limit of /v1, for /console/api too */
  perAddressLimit: RequestHandler;
  /** sign-ins per client address */
  signInLimit: RequestHandler;
  /** the built pages (packages/console-ui/dist) */
  distDir: string;
}

/**
 * The partner console at /console: its pages, sign-in and sessions, and the few endpoints the API
 * has no equivalent of (keys, the ledger as CSV). Everything else the pages show they read from
 * /v1 with the session's cookie, through the API's own routes.
 */
export function consoleRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  router.use("/console", consoleHeaders);
  router.use("/console/api", deps.perAddressLimit);
  // As for /v1: no body is read before the session is checked.
  router.use(["/console/api/keys", "/console/api/ledger.csv"], consoleAuthenticate(deps.sessions, deps.environment));
  router.use("/console/api", jsonBody);
  router.use(signInRoutes({ db: deps.db, sessions: deps.sessions, signInLimit: deps.signInLimit }));
  router.use(keyRoutes({ db: deps.db, redis: deps.redis, environment: deps.environment }));
  router.use(ledgerCsvRoutes({ db: deps.db, chains: deps.chains }));

  router.use(consolePages(deps.distDir, deps.logger));
  return router;
}
