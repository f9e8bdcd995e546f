import { timingSafeEqual } from "node:crypto";
import { ApiError } from "../http/api-error";
import type { Environment } from "@sweep/common";
import type { Request, RequestHandler } from "express";
import type { AuthenticatedPartner } from "../auth/api-key-verdict";
import { hasSessionCookie, sessionToken } from "./session-cookie";
import type { ConsoleSession, ConsoleSessions } from "./session-store";

export const CSRF_HEADER = "X-CSRF-Token";

const SAFE_METHODS = new Set(["GET", "HEAD"]);

const ended = () => new ApiError("unauthorized", "the console session has ended; sign in again");

/** The live session of the request's cookie; null without one. */
export async function sessionOf(req: Request, sessions: ConsoleSessions): Promise<ConsoleSession | null> {
  const token = sessionToken(req);
  return token === null ? null : sessions.find(token);
}

/** A change (any method but GET and HEAD) made with the session's cookie must carry the session's CSRF token. */
export function requireCsrfToken(req: Request, session: ConsoleSession): void {
  if (SAFE_METHODS.has(req.method) || sameToken(req.get(CSRF_HEADER), session.csrfToken)) return;
  // 401 rather than 403: the spec's table has no 403 but partner_disabled (docs/decisions.md).
  throw new ApiError("unauthorized", "the console request lacks its X-CSRF-Token");
}

/** The live session of the request's cookie, or 401 unauthorized; a change must carry its CSRF token. */
export async function requireSession(req: Request, sessions: ConsoleSessions): Promise<ConsoleSession> {
  const session = await sessionOf(req, sessions);
  if (!session) throw ended();
  requireCsrfToken(req, session);
  return session;
}

/**
 * The partner of a request that came with the console's cookie and no Authorization header, as
 * authenticate puts it in res.locals for a key; null when there is no such cookie. A disabled
 * partner is 403 partner_disabled, as for its keys; the per-key limit counts per session.
 */
export async function sessionPartner(req: Request, sessions: ConsoleSessions, environment: Environment): Promise<AuthenticatedPartner | null> {
  if (!hasSessionCookie(req)) return null;
  const session = await requireSession(req, sessions);
  if (session.partner.environment !== environment) throw new ApiError("unauthorized", `the console session is not one of the ${environment} API`);
  if (!session.partner.enabled) throw new ApiError("partner_disabled", "the account is disabled");
  return { partnerId: session.partner.id, gasWallet: session.partner.gasWallet, limitKey: `console:${session.id}` };
}

function sameToken(sent: string | undefined, expected: string): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The console's own data endpoints: the session's partner in res.locals, as authenticate puts a key's. */
export function consoleAuthenticate(sessions: ConsoleSessions, environment: Environment): RequestHandler {
  return async (req, res, next) => {
    const partner = await sessionPartner(req, sessions, environment);
    if (!partner) throw new ApiError("unauthorized", "sign in to the console first");
    res.locals.partner = partner;
    next();
  };
}
