import { consoleTokenHash } from "@sweep/credentials";
import type { Db } from "@sweep/db";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { ApiError } from "../http/api-error";
import { parseRequest, type ValidationCodes } from "../http/validation";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, hashPassword, passwordMatches } from "./passwords";
import { presentSession } from "./session-body";
import { requireCsrfToken, requireSession, sessionOf } from "./session-auth";
import { clearSessionCookie, setSessionCookie } from "./session-cookie";
import type { ConsoleSessions } from "./session-store";

export interface SignInRoutesDeps {
  db: Db;
  sessions: ConsoleSessions;
  /** per client address, before any hashing */
  signInLimit: RequestHandler;
}

const bodyCodes: ValidationCodes = { shapeCode: "invalid_json", noun: "field", valueCodes: {} };

const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
  .max(MAX_PASSWORD_LENGTH, { error: `must be at most ${MAX_PASSWORD_LENGTH} characters` });
const LinkSignIn = z.strictObject({ token: z.string().min(1).max(200), password });
// A password of another length cannot be right: refused as a mismatch, not as a rule, so the rule cannot be probed.
const PasswordSignIn = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });

const badLink = () => new ApiError("unauthorized", "the sign-in link is unknown, used or expired: ask your operator for a new one");
const mismatch = () => new ApiError("unauthorized", "the email or password is wrong");

/**
 * The sign-in endpoints take no session, so CSRF tokens cannot guard them: they take only
 * `Content-Type: application/json`, which a form of another site cannot send (and a script of
 * another site cannot send without a CORS preflight, which this server never grants).
 */
const requireJson: RequestHandler = (req, _res, next) => {
  if (!req.is("application/json")) throw new ApiError("invalid_json", "send the body as Content-Type: application/json");
  next();
};

export function signInRoutes(deps: SignInRoutesDeps): Router {
  const router = Router();

  async function signIn(req: Request, res: Response, userId: string): Promise<void> {
    const { token, session } = await deps.sessions.open(userId);
    setSessionCookie(req, res, token);
    res.set("Cache-Control", "no-store").json(presentSession(session));
  }

  // The one-time link: sets the password (a new user's, or a reset) and signs in.
  router.post("/console/api/sign-in/link", deps.signInLimit, requireJson, async (req, res) => {
    const body = parseRequest(LinkSignIn, req.body, bodyCodes);
    const hash = consoleTokenHash(body.token);
    const now = new Date();
    const link = await deps.db.consoleSignInToken.findUnique({ where: { hash }, select: { usedAt: true, expiresAt: true, user: { select: { id: true, disabledAt: true } } } });
    if (!link || link.usedAt !== null || link.expiresAt <= now || link.user.disabledAt !== null) throw badLink();
    const passwordHash = await hashPassword(body.password);
    await deps.db.$transaction(async (tx) => {
      // Guarded: of two requests with one link, one sets the password.
      const { count } = await tx.consoleSignInToken.updateMany({ where: { hash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
      if (count !== 1) throw badLink();
      await tx.consoleUser.update({ where: { id: link.user.id }, data: { passwordHash } });
      // A password set anew ends the sessions of the old one.
      await tx.consoleSession.deleteMany({ where: { userId: link.user.id } });
    });
    await signIn(req, res, link.user.id);
  });

  router.post("/console/api/sign-in", deps.signInLimit, requireJson, async (req, res) => {
    const body = parseRequest(PasswordSignIn, req.body, bodyCodes);
    const user = await deps.db.consoleUser.findUnique({ where: { email: body.email.trim().toLowerCase() }, select: { id: true, passwordHash: true, disabledAt: true } });
    // Verified even without a user, so an unknown email takes as long as a wrong password.
    if (!(await passwordMatches(user?.passwordHash ?? null, body.password)) || !user) throw mismatch();
    if (user.disabledAt !== null) throw new ApiError("unauthorized", "this console user is disabled");
    await signIn(req, res, user.id);
  });

  router.post("/console/api/sign-out", async (req, res) => {
    // Without a live session there is nothing to end; with one, the change needs its CSRF token like any other.
    const session = await sessionOf(req, deps.sessions);
    if (session) {
      requireCsrfToken(req, session);
      await deps.sessions.end(session.id);
    }
    clearSessionCookie(req, res);
    res.status(204).end();
  });

  // Whether anyone is signed in is a question, not a failure: signed out is a 200 of `{ user: null }`, so the
  // sign-in page's check logs no failed request in the browser's console.
  router.get("/console/api/session", async (req, res) => {
    const session = await requireSession(req, deps.sessions).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === "unauthorized") return null;
      throw err;
    });
    res.set("Cache-Control", "no-store").json(session ? presentSession(session) : { user: null });
  });

  return router;
}
