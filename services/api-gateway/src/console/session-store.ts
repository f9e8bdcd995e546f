import { consoleTokenHash, newConsoleToken } from "@sweep/credentials";
import type { Environment } from "@sweep/common";
import type { Db } from "@sweep/db";
import { SESSION_IDLE_MS, SESSION_MAX_MS, sessionAlive, sessionNeedsTouch } from "./session-expiry";

/** A live console session with what the console and the API need of its user and partner. */
export interface ConsoleSession {
  id: string;
  csrfToken: string;
  user: { id: string; email: string };
  partner: { id: string; name: string; environment: Environment; enabled: boolean; gasWallet: string | null };
}

const sessionSelect = {
  id: true,
  csrfToken: true,
  lastSeenAt: true,
  expiresAt: true,
  user: {
    select: {
      id: true,
      email: true,
      disabledAt: true,
      partner: { select: { id: true, name: true, environment: true, enabled: true, gasWallet: { select: { address: true } } } },
    },
  },
} as const;

/**
 * Console sessions in Postgres, named by the sha256 of the cookie's token (a copy of the table
 * signs nobody in). Each carries a CSRF token of its own, which the page reads from
 * GET /console/api/session and sends back with every change.
 */
export class ConsoleSessions {
  constructor(private readonly db: Db) {}

  /** A new session for the user; the token goes into the cookie and nowhere else. */
  async open(userId: string): Promise<{ token: string; session: ConsoleSession }> {
    const token = newConsoleToken();
    const now = new Date();
    // The user's ended sessions go with each sign-in, so the table keeps only the live ones and a few.
    await this.db.consoleSession.deleteMany({ where: { userId, OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lte: new Date(now.getTime() - SESSION_IDLE_MS) } }] } });
    const row = await this.db.consoleSession.create({
      data: { userId, hash: consoleTokenHash(token), csrfToken: newConsoleToken(), lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_MAX_MS) },
      select: sessionSelect,
    });
    return { token, session: present(row) };
  }

  /** The live session of this token, its idle expiry moved on; null when there is none (ended, expired, its user disabled). */
  async find(token: string): Promise<ConsoleSession | null> {
    const now = new Date();
    const row = await this.db.consoleSession.findUnique({ where: { hash: consoleTokenHash(token) }, select: sessionSelect });
    if (!row || row.user.disabledAt !== null) return null;
    if (!sessionAlive(row, now)) {
      await this.db.consoleSession.deleteMany({ where: { id: row.id } });
      return null;
    }
    if (sessionNeedsTouch(row, now)) await this.db.consoleSession.updateMany({ where: { id: row.id }, data: { lastSeenAt: now } });
    return present(row);
  }

  /** Sign-out: the session is gone, whatever the browser keeps. */
  async end(sessionId: string): Promise<void> {
    await this.db.consoleSession.deleteMany({ where: { id: sessionId } });
  }
}

function present(row: {
  id: string;
  csrfToken: string;
  user: { id: string; email: string; partner: { id: string; name: string; environment: Environment; enabled: boolean; gasWallet: { address: string } | null } };
}): ConsoleSession {
  const { partner } = row.user;
  return {
    id: row.id,
    csrfToken: row.csrfToken,
    user: { id: row.user.id, email: row.user.email },
    partner: { id: partner.id, name: partner.name, environment: partner.environment, enabled: partner.enabled, gasWallet: partner.gasWallet?.address ?? null },
  };
}
