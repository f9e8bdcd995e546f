import { createHash, randomBytes } from "node:crypto";

/** How long a sign-in link of `sweepctl console-user create` is valid (it is used once). */
export const SIGN_IN_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Where the console is served when CONSOLE_URL is not set: `pnpm start`'s gateway. */
export const DEFAULT_CONSOLE_URL = "http://127.0.0.1:8080/console";

/** A random token for a sign-in link or a session cookie: 32 bytes, base64url. */
export function newConsoleToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a console token (sign-in link or session): its sha256, hex. */
export function consoleTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * The one-time link a new console user opens. The token is in the fragment, which browsers never
 * send to a server nor put in a Referer: it reaches only the page's script, which posts it.
 */
export function signInUrl(consoleUrl: string, token: string): string {
  return `${consoleUrl.replace(/\/+$/, "")}/sign-in#token=${token}`;
}
