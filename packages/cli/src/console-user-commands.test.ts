import { consoleTokenHash } from "@sweep/credentials";
import type { Db } from "@sweep/db";
import type Redis from "ioredis";
import { createConsoleUser, setConsoleUserEnabled } from "./console-user-commands";
import { openTestConnections, testContext } from "./test-support";

interface Created {
  user_id: string;
  email: string;
  partner_id: string;
  sign_in_url: string;
  expires_at: string;
}

describe("console-user create", () => {
  let db: Db;
  let redis: Redis;
  let close: () => Promise<void>;
  let partnerId: string;
  beforeAll(async () => {
    ({ db, redis, close } = await openTestConnections());
    partnerId = (await db.partner.create({ data: { name: "console", environment: "testnet" } })).id;
  });
  afterAll(() => close());

  const unique = () => `ops-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  async function create(email: string, env: NodeJS.ProcessEnv = {}, partner = partnerId) {
    const ctx = testContext(db, redis, env);
    await createConsoleUser(ctx, partner, email);
    return { created: ctx.out.results[0] as Created, lines: ctx.out.lines };
  }

  const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, "");

  it("makes the user and prints a one-time link under CONSOLE_URL's default, keeping only the token's hash", async () => {
    const email = unique();
    const { created, lines } = await create(`  ${email.toUpperCase()} `);
    expect(created).toMatchObject({ email, partner_id: partnerId, sign_in_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/console\/sign-in#token=[A-Za-z0-9_-]{43}$/) });
    const expiresIn = Date.parse(created.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);
    const user = await db.consoleUser.findUniqueOrThrow({ where: { id: created.user_id }, include: { tokens: true } });
    expect(user).toMatchObject({ partnerId, email, passwordHash: null, disabledAt: null });
    expect(user.tokens).toEqual([expect.objectContaining({ hash: consoleTokenHash(tokenOf(created.sign_in_url)), usedAt: null })]);
    expect(JSON.stringify(user.tokens)).not.toContain(tokenOf(created.sign_in_url));
    expect(lines.join("\n")).toContain(created.sign_in_url);
  });

  it("builds the link on CONSOLE_URL", async () => {
    const { created } = await create(unique(), { CONSOLE_URL: "https://console.example.com/console/" });
    expect(created.sign_in_url).toMatch(/^https:\/\/console\.example\.com\/console\/sign-in#token=/);
  });

  it("gives an existing user a new link (a password reset) and ends the earlier one", async () => {
    const email = unique();
    const first = (await create(email)).created;
    const { created: second, lines } = await create(email);
    expect(second.user_id).toBe(first.user_id);
    expect(lines.join("\n")).toContain("Earlier links of this user no longer work");
    const tokens = await db.consoleSignInToken.findMany({ where: { userId: first.user_id } });
    const earlier = tokens.find((t) => t.hash === consoleTokenHash(tokenOf(first.sign_in_url)))!;
    const later = tokens.find((t) => t.hash === consoleTokenHash(tokenOf(second.sign_in_url)))!;
    expect(earlier.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(later.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it.each([
    ["a malformed email", () => create("not-an-email"), /not an email address: "not-an-email"/],
    ["an unknown partner", () => create(unique(), {}, "00000000-0000-4000-8000-000000000000"), /no partner with id/],
    ["a partner id that is not a uuid", () => create(unique(), {}, "acme"), /not a partner id/],
  ])("refuses %s", async (_what, run, message) => {
    await expect(run()).rejects.toThrow(message);
  });

  it("refuses an email that is another partner's user", async () => {
    const email = unique();
    await create(email);
    const other = (await db.partner.create({ data: { name: "other", environment: "testnet" } })).id;
    await expect(create(email, {}, other)).rejects.toThrow(`${email} is a console user of another partner (${partnerId})`);
  });

  it("disables a user, ending its sessions at once, and enables it again", async () => {
    const { created } = await create(unique());
    await db.consoleSession.create({ data: { userId: created.user_id, hash: `h-${created.user_id}`, csrfToken: "c", expiresAt: new Date(Date.now() + 60_000) } });

    const ctx = testContext(db, redis);
    await setConsoleUserEnabled(ctx, created.email.toUpperCase(), false);
    expect(ctx.out.results[0]).toEqual({ user_id: created.user_id, email: created.email, partner_id: partnerId, enabled: false, sessions_ended: 1 });
    expect(await db.consoleSession.count({ where: { userId: created.user_id } })).toBe(0);
    const disabledAt = (await db.consoleUser.findUniqueOrThrow({ where: { id: created.user_id } })).disabledAt;
    expect(disabledAt).toBeInstanceOf(Date);

    // Disabling again keeps the first time.
    await setConsoleUserEnabled(testContext(db, redis), created.email, false);
    expect((await db.consoleUser.findUniqueOrThrow({ where: { id: created.user_id } })).disabledAt).toEqual(disabledAt);

    await setConsoleUserEnabled(testContext(db, redis), created.email, true);
    expect((await db.consoleUser.findUniqueOrThrow({ where: { id: created.user_id } })).disabledAt).toBeNull();
  });

  it("refuses to disable an unknown user", async () => {
    await expect(setConsoleUserEnabled(testContext(db, redis), "nobody@example.com", false)).rejects.toThrow("no console user nobody@example.com");
  });
});
