import type { Request, Response } from "express";

export const SESSION_COOKIE = "sweep_console";

/** A token newConsoleToken makes: 32 bytes as base64url. Anything else names no session and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether the request carries the console's cookie at all (well formed or not). */
export function hasSessionCookie(req: Request): boolean {
  return cookieValues(req).length > 0;
}

/** The session token of the request's cookie; null without one, or when it is malformed or sent twice. */
export function sessionToken(req: Request): string | null {
  const values = cookieValues(req);
  return values.length === 1 && TOKEN.test(values[0]!) ? values[0]! : null;
}

function cookieValues(req: Request): string[] {
  const header = req.get("cookie");
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq !== -1 && pair.slice(0, eq).trim() === SESSION_COOKIE) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure when the
 * request came over https (req.secure: behind a proxy, as TRUST_PROXY lets express believe it).
 * A browser session cookie: the server ends the session itself (idle and absolute expiry).
 */
export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: "strict", secure: req.secure, path: "/" });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "strict", secure: req.secure, path: "/" });
}
