import { randomBytes } from "node:crypto";
import { consoleTokenHash } from "@sweep/credentials";
import request from "supertest";
import { consoleUserWithLink, sessionCookieOf, signedInConsole } from "./console-support";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

describe("signing in to the console", () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    // A limit of its own: these tests sign in more often than a person does.
    gateway = await startTestGateway({ rateLimits: { keyPrefix: `console-${randomBytes(4).toString("hex")}`, consoleSignInsPerMinute: 1000 } });
  });
  afterAll(() => gateway.close());

  const session = (cookie?: string) => request(gateway.app).get("/console/api/session").set(cookie ? { Cookie: cookie } : {});
  /** Signed out is an answer, not a failure: no 401 for the browser to log. */
  const expectSignedOut = (res: { status: number; body: unknown; headers: Record<string, string> }) => {
    expect([res.status, res.body, res.headers["cache-control"]]).toEqual([200, { user: null }, "no-store"]);
  };
  const password = "a long enough password";

  it("a new user opens the link, sets a password, is signed in, and signs in again later with email and password", async () => {
    const partner = await createTestPartner(gateway.db, "Console Co");
    const { userId, email, token } = await consoleUserWithLink(gateway.db, partner.partnerId);

    const linked = await request(gateway.app).post("/console/api/sign-in/link").send({ token, password });
    expect(linked.status).toBe(200);
    const expected = { user: { id: userId, email }, partner: { id: partner.partnerId, name: "Console Co", environment: "testnet", disabled: false }, csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) };
    expect(linked.body).toEqual(expected);
    const { cookie } = sessionCookieOf(linked);

    const current = await session(cookie);
    expect(current.status).toBe(200);
    expect(current.body).toEqual({ ...expected, csrf_token: linked.body.csrf_token });
    const user = await gateway.db.consoleUser.findUniqueOrThrow({ where: { id: userId } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);

    const again = await request(gateway.app).post("/console/api/sign-in").send({ email: email.toUpperCase(), password });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ user: { id: userId, email } });
    // A session of its own, with a CSRF token of its own.
    expect(sessionCookieOf(again).cookie).not.toBe(cookie);
    expect(again.body.csrf_token).not.toBe(linked.body.csrf_token);
  });

  it("refuses a used link, an expired one and an unknown one with 401 unauthorized", async () => {
    const partner = await createTestPartner(gateway.db);
    const { token } = await consoleUserWithLink(gateway.db, partner.partnerId);
    expect((await request(gateway.app).post("/console/api/sign-in/link").send({ token, password })).status).toBe(200);

    const expired = await consoleUserWithLink(gateway.db, partner.partnerId, -1_000);
    for (const used of [token, expired.token, "never-issued"]) {
      const res = await request(gateway.app).post("/console/api/sign-in/link").send({ token: used, password: "another long password" });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "unauthorized", message: "the sign-in link is unknown, used or expired: ask your operator for a new one" } });
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("refuses a short password as invalid_json naming the rule, and leaves the link usable", async () => {
    const partner = await createTestPartner(gateway.db);
    const { token } = await consoleUserWithLink(gateway.db, partner.partnerId);
    const res = await request(gateway.app).post("/console/api/sign-in/link").send({ token, password: "short" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_json", message: "password must be at least 12 characters" } });
    expect((await request(gateway.app).post("/console/api/sign-in/link").send({ token, password })).status).toBe(200);
  });

  it.each([
    ["a form's body", (r: request.Test) => r.type("form").send("email=a%40b.c&password=xxxxxxxxxxxxx")],
    ["text/plain", (r: request.Test) => r.set("Content-Type", "text/plain").send('{"email":"a@b.c","password":"xxxxxxxxxxxxx"}')],
    ["an unknown field", (r: request.Test) => r.send({ email: "a@b.c", password: "xxxxxxxxxxxxx", remember: true })],
    ["no body", (r: request.Test) => r.set("Content-Type", "application/json")],
  ])("refuses a sign-in with %s as 400 invalid_json", async (_what, send) => {
    const res = await send(request(gateway.app).post("/console/api/sign-in"));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("refuses a wrong password, an unknown email and a user who never set a password alike: 401", async () => {
    const partner = await createTestPartner(gateway.db);
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    const unset = await consoleUserWithLink(gateway.db, partner.partnerId);
    for (const body of [
      { email: browser.email, password: "not the password at all" },
      { email: "nobody@example.com", password: browser.password },
      { email: unset.email, password: browser.password },
    ]) {
      const res = await request(gateway.app).post("/console/api/sign-in").send(body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "unauthorized", message: "the email or password is wrong" } });
    }
  });

  it("sets the cookie HttpOnly, SameSite=Strict and Path=/, Secure only over https (X-Forwarded-Proto from a trusted proxy)", async () => {
    const partner = await createTestPartner(gateway.db);
    const { token } = await consoleUserWithLink(gateway.db, partner.partnerId);
    const { attributes } = sessionCookieOf(await request(gateway.app).post("/console/api/sign-in/link").send({ token, password }));
    expect(attributes).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Strict"]));
    expect(attributes).not.toContain("Secure");

    const proxied = await startTestGateway({ trustProxy: "loopback", rateLimits: { keyPrefix: `console-${randomBytes(4).toString("hex")}` } });
    try {
      const link = await consoleUserWithLink(proxied.db, partner.partnerId);
      const res = await request(proxied.app).post("/console/api/sign-in/link").set("X-Forwarded-Proto", "https").send({ token: link.token, password });
      expect(res.status).toBe(200);
      expect(sessionCookieOf(res).attributes).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Strict", "Secure"]));
    } finally {
      await proxied.close();
    }
  });

  it("signs out: the session ends on the server, and the cookie is cleared", async () => {
    const partner = await createTestPartner(gateway.db);
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);

    const withoutToken = await request(gateway.app).post("/console/api/sign-out").set("Cookie", browser.cookie);
    expect(withoutToken.status).toBe(401);
    expect(withoutToken.body).toEqual({ error: { code: "unauthorized", message: "the console request lacks its X-CSRF-Token" } });
    expect((await session(browser.cookie)).status).toBe(200);

    const out = await request(gateway.app).post("/console/api/sign-out").set({ Cookie: browser.cookie, "X-CSRF-Token": browser.csrf });
    expect(out.status).toBe(204);
    expect(sessionCookieOf(out).cookie).toBe("sweep_console=");
    // The old cookie, kept by whoever copied it, no longer signs anyone in.
    expectSignedOut(await session(browser.cookie));
    const settings = await request(gateway.app).get("/v1/settings").set("Cookie", browser.cookie);
    expect(settings.status).toBe(401);
    expect(settings.body).toEqual({ error: { code: "unauthorized", message: "the console session has ended; sign in again" } });
  });

  it("ends a session idle for 30 minutes, and one signed in 12 hours ago however busy", async () => {
    const partner = await createTestPartner(gateway.db);
    const idle = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    const old = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    await gateway.db.consoleSession.updateMany({ where: { userId: idle.userId }, data: { lastSeenAt: new Date(Date.now() - 30 * 60_000 - 1_000) } });
    await gateway.db.consoleSession.updateMany({ where: { userId: old.userId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    for (const browser of [idle, old]) {
      expectSignedOut(await session(browser.cookie));
      expect((await request(gateway.app).get("/v1/settings").set("Cookie", browser.cookie)).status).toBe(401);
    }
  });

  it("moves a used session's idle expiry on", async () => {
    const partner = await createTestPartner(gateway.db);
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
    await gateway.db.consoleSession.updateMany({ where: { userId: browser.userId }, data: { lastSeenAt: twentyMinutesAgo } });
    expect((await request(gateway.app).get("/v1/settings").set("Cookie", browser.cookie)).status).toBe(200);
    const row = await gateway.db.consoleSession.findFirstOrThrow({ where: { userId: browser.userId } });
    expect(row.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  it("a new password through a new link ends the sessions of the old one", async () => {
    const partner = await createTestPartner(gateway.db);
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    const reset = randomBytes(32).toString("base64url");
    await gateway.db.consoleSignInToken.create({ data: { userId: browser.userId, hash: consoleTokenHash(reset), expiresAt: new Date(Date.now() + 60_000) } });
    expect((await request(gateway.app).post("/console/api/sign-in/link").send({ token: reset, password: "a brand new password" })).status).toBe(200);
    expectSignedOut(await session(browser.cookie));
    expect((await request(gateway.app).post("/console/api/sign-in").send({ email: browser.email, password: browser.password })).status).toBe(401);
  });

  it("answers a disabled partner's session with disabled: true, and its /v1 calls with 403 partner_disabled", async () => {
    const partner = await createTestPartner(gateway.db);
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    await gateway.db.partner.update({ where: { id: partner.partnerId }, data: { enabled: false } });
    const current = await session(browser.cookie);
    expect(current.status).toBe(200);
    expect(current.body.partner.disabled).toBe(true);
    const api = await request(gateway.app).get("/v1/settings").set("Cookie", browser.cookie);
    expect(api.status).toBe(403);
    expect(api.body.error.code).toBe("partner_disabled");
    expect((await request(gateway.app).get("/console/api/keys").set("Cookie", browser.cookie)).status).toBe(403);
  });

  it("refuses a disabled console user's session and sign-in", async () => {
    const partner = await createTestPartner(gateway.db);
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    await gateway.db.consoleUser.update({ where: { id: browser.userId }, data: { disabledAt: new Date() } });
    expectSignedOut(await session(browser.cookie));
    const res = await request(gateway.app).post("/console/api/sign-in").send({ email: browser.email, password: browser.password });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("this console user is disabled");
  });

  it.each([["no cookie", undefined], ["a made-up one", "sweep_console=" + "A".repeat(43)], ["a malformed one", "sweep_console=%00;"], ["two of them", "sweep_console=a; sweep_console=b"]])(
    "answers GET /console/api/session with %s as signed out: 200, no user",
    async (_what, cookie) => {
      expectSignedOut(await session(cookie));
    },
  );
});
