import { randomBytes } from "node:crypto";
import { consoleTokenHash, newConsoleToken } from "@sweep/credentials";
import type { Db } from "@sweep/db";
import type express from "express";
import request from "supertest";

/** A console user of the partner with a one-time sign-in link, as `sweepctl console-user create` makes them. */
export async function consoleUserWithLink(db: Db, partnerId: string, expiresInMs = 24 * 3600_000): Promise<{ userId: string; email: string; token: string }> {
  const email = `user-${randomBytes(6).toString("hex")}@example.com`;
  const token = newConsoleToken();
  const user = await db.consoleUser.create({
    data: { partnerId, email, tokens: { create: { hash: consoleTokenHash(token), expiresAt: new Date(Date.now() + expiresInMs) } } },
  });
  return { userId: user.id, email, token };
}

/** The `name=value` of the response's session cookie (for the next request's Cookie header), and its attributes. */
export function sessionCookieOf(res: request.Response): { cookie: string; attributes: string[] } {
  const header = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sweep_console="));
  if (!header) throw new Error(`no sweep_console cookie in ${JSON.stringify(res.headers["set-cookie"])}`);
  const [cookie, ...attributes] = header.split(";").map((part) => part.trim());
  return { cookie: cookie!, attributes };
}

/** A signed-in browser of a console user: its Cookie header and the CSRF token GET /console/api/session gives. */
export interface ConsoleBrowser {
  cookie: string;
  csrf: string;
  email: string;
  password: string;
  userId: string;
}

/** Signs a new console user of the partner in through its link, as the sign-in page does. */
export async function signedInConsole(app: express.Express, db: Db, partnerId: string): Promise<ConsoleBrowser> {
  const { userId, email, token } = await consoleUserWithLink(db, partnerId);
  const password = `correct horse ${randomBytes(4).toString("hex")}`;
  const res = await request(app).post("/console/api/sign-in/link").send({ token, password });
  if (res.status !== 200) throw new Error(`sign-in through the link: ${res.status} ${JSON.stringify(res.body)}`);
  return { cookie: sessionCookieOf(res).cookie, csrf: res.body.csrf_token, email, password, userId };
}
