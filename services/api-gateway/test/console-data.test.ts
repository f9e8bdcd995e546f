import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { toDecimal } from "@sweep/db";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { signedInConsole, type ConsoleBrowser } from "./console-support";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe("the console's data: the API with the session cookie, keys, the ledger as CSV, the pages", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let browser: ConsoleBrowser;
  let dist: string;
  beforeAll(async () => {
    // Pages as Vite builds them: index.html and hashed assets.
    dist = mkdtempSync(path.join(tmpdir(), "console-dist-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), '<!doctype html><html><head><script type="module" src="/console/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>');
    writeFileSync(path.join(dist, "assets", "index-abc123.js"), "console.log('console')");
    gateway = await startTestGateway({ consoleDist: dist, rateLimits: { keyPrefix: `console-data-${randomUUID()}` } });
    partner = await createTestPartner(gateway.db, "Data Co");
    browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
  });
  afterAll(() => gateway.close());

  const withCookie = (who: ConsoleBrowser) => ({ Cookie: who.cookie });
  const withCsrf = (who: ConsoleBrowser) => ({ Cookie: who.cookie, "X-CSRF-Token": who.csrf });

  describe("/v1 with the session cookie", () => {
    it("reads and changes the partner's data as its keys do, a change only with the CSRF token", async () => {
      const read = await request(gateway.app).get("/v1/settings").set(withCookie(browser));
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ keep_one_unit: false, fee_ceilings: [] });

      for (const headers of [withCookie(browser), { ...withCookie(browser), "X-CSRF-Token": "A".repeat(43) }]) {
        const refused = await request(gateway.app).patch("/v1/settings").set(headers).send({ keep_one_unit: true });
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({ error: { code: "unauthorized", message: "the console request lacks its X-CSRF-Token" } });
      }
      const posted = await request(gateway.app).post("/v1/webhook/test").set(withCookie(browser));
      expect(posted.status).toBe(401);
      expect(posted.body.error.message).toBe("the console request lacks its X-CSRF-Token");
      expect((await request(gateway.app).get("/v1/settings").set(partner.auth)).body).toEqual({ keep_one_unit: false, fee_ceilings: [] });

      const changed = await request(gateway.app).patch("/v1/settings").set(withCsrf(browser)).send({ keep_one_unit: true });
      expect(changed.status).toBe(200);
      expect((await request(gateway.app).get("/v1/settings").set(partner.auth)).body).toEqual({ keep_one_unit: true, fee_ceilings: [] });
      await request(gateway.app).patch("/v1/settings").set(partner.auth).send({ keep_one_unit: false });
    });

    it("does not take another session's CSRF token", async () => {
      const other = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
      const res = await request(gateway.app).patch("/v1/settings").set({ Cookie: browser.cookie, "X-CSRF-Token": other.csrf }).send({ keep_one_unit: true });
      expect(res.status).toBe(401);
    });

    it("uses the key when a request carries both a key and the cookie", async () => {
      const other = await createTestPartner(gateway.db);
      await request(gateway.app).patch("/v1/settings").set(other.auth).send({ keep_one_unit: true });
      const res = await request(gateway.app).get("/v1/settings").set({ ...other.auth, ...withCookie(browser) });
      expect(res.body).toEqual({ keep_one_unit: true, fee_ceilings: [] });
      // A key-authenticated change needs no CSRF token, cookie or not.
      expect((await request(gateway.app).patch("/v1/settings").set({ ...other.auth, ...withCookie(browser) }).send({ keep_one_unit: false })).status).toBe(200);
    });

    it("answers another partner's sweep id as not found, as the API does", async () => {
      const other = await createTestPartner(gateway.db);
      const wallet = await hotWalletIn(gateway, other, "active", SEPOLIA);
      const created = await request(gateway.app).post("/v1/sweeps").set(other.auth).send({ chain_id: SEPOLIA, hot_wallet: wallet.address, account: randomAddress(), token: "native" });
      expect(created.status).toBe(202);
      const res = await request(gateway.app).get(`/v1/sweeps/${created.body.id}`).set(withCookie(browser));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect((await request(gateway.app).get(`/v1/sweeps/${created.body.id}`).set(other.auth)).status).toBe(200);
    });
  });

  describe("API keys", () => {
    it("creates a key shown once that works on /v1 as Bearer, lists it with its last use, and revokes it", async () => {
      const refused = await request(gateway.app).post("/console/api/keys").set(withCookie(browser));
      expect(refused.status).toBe(401);

      const created = await request(gateway.app).post("/console/api/keys").set(withCsrf(browser));
      expect(created.status).toBe(201);
      expect(created.headers["cache-control"]).toBe("no-store");
      const { id, key, prefix } = created.body;
      expect(created.body).toEqual({ id: expect.any(String), key: expect.stringMatching(/^svc_test_/), prefix: `${key.slice(0, 15)}…`, created_at: expect.any(String) });

      const listed = () => request(gateway.app).get("/console/api/keys").set(withCookie(browser));
      const before = (await listed()).body.items.find((k: { id: string }) => k.id === id);
      expect(before).toEqual({ id, prefix, created_at: created.body.created_at, last_used_at: null, revoked_at: null });
      expect(JSON.stringify((await listed()).body)).not.toContain(key);

      const used = await request(gateway.app).get("/v1/settings").set("Authorization", `Bearer ${key}`);
      expect(used.status).toBe(200);
      const after = (await listed()).body.items.find((k: { id: string }) => k.id === id);
      expect(Date.parse(after.last_used_at)).toBeGreaterThan(Date.now() - 10_000);

      const revoked = await request(gateway.app).post(`/console/api/keys/${id}/revoke`).set(withCsrf(browser));
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id, prefix, revoked_at: expect.any(String) });
      // At once: the look-up cached by the request above is dropped.
      const refusedKey = await request(gateway.app).get("/v1/settings").set("Authorization", `Bearer ${key}`);
      expect(refusedKey.status).toBe(401);
      expect(refusedKey.body.error.code).toBe("unauthorized");
    });

    it("answers another partner's key id, and one that is no id, with 404 not_found, and revokes nothing", async () => {
      const other = await createTestPartner(gateway.db);
      const key = await gateway.db.apiKey.findFirstOrThrow({ where: { partnerId: other.partnerId } });
      for (const id of [key.id, randomUUID(), "not-an-id"]) {
        const res = await request(gateway.app).post(`/console/api/keys/${id}/revoke`).set(withCsrf(browser));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      expect((await request(gateway.app).get("/v1/settings").set(other.auth)).status).toBe(200);
      const listed = await request(gateway.app).get("/console/api/keys").set(withCookie(browser));
      expect(listed.body.items.map((k: { id: string }) => k.id)).not.toContain(key.id);
    });

    it("refuses the key endpoints without a session", async () => {
      const res = await request(gateway.app).get("/console/api/keys");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "unauthorized", message: "sign in to the console first" } });
    });
  });

  describe("GET /console/api/ledger.csv", () => {
    it("exports every matching entry of GET /v1/ledger's query, over several of its pages, as RFC 4180 CSV", async () => {
      const owner = await createTestPartner(gateway.db);
      const ownerBrowser = await signedInConsole(gateway.app, gateway.db, owner.partnerId);
      const book = (chainId: number, kind: "topup" | "fee_charge", amount: bigint, note: string | null) =>
        gateway.db.ledgerEntry.create({ data: { partnerId: owner.partnerId, chainId, kind, amount: toDecimal(amount), note, dedupeKey: `csv:${randomUUID()}` } });
      const charge = await book(SEPOLIA, "fee_charge", -7n, '=HYPERLINK("x"), "quoted"');
      for (let i = 0; i < 205; i++) await book(SEPOLIA, "topup", BigInt(i + 1), null);
      await book(BSC_TESTNET, "topup", 3n, "bsc");

      const res = await request(gateway.app).get("/console/api/ledger.csv").query({ chain_id: SEPOLIA }).set(withCookie(ownerBrowser));
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toBe('attachment; filename="ledger.csv"');
      const lines = res.text.split("\r\n");
      expect(lines[0]).toBe("id,created_at,chain_id,kind,amount,balance_after,paid_for,batch_id,tx_hash,sweep_id,note,coin,amount_coin,balance_after_coin");
      expect(lines).toHaveLength(1 + 206 + 1);
      expect(lines.at(-1)).toBe("");
      // A charge is owed, not paid out: the wallet's balance after it is what it was (nothing yet).
      expect(lines.at(-2)).toBe(`${charge.id},${charge.createdAt.toISOString()},${SEPOLIA},fee_charge,-7,0,,,,,"'=HYPERLINK(""x""), ""quoted""",ETH,-0.000000000000000007,0`);
      // The newest top-up: 205 wei, after the 204 before it (1 + 2 + … + 205 wei in all).
      expect(lines[1]).toMatch(new RegExp(`^\\d+,[^,]+,${SEPOLIA},topup,205,21115,,,,,,ETH,0.000000000000000205,0.000000000000021115$`));

      const api = await request(gateway.app).get("/v1/ledger").query({ chain_id: SEPOLIA, kind: "fee_charge" }).set(owner.auth);
      const filtered = await request(gateway.app).get("/console/api/ledger.csv").query({ chain_id: SEPOLIA, kind: "fee_charge" }).set(withCookie(ownerBrowser));
      expect(filtered.text.split("\r\n").slice(1, -1).map((line) => Number(line.split(",")[0]))).toEqual(api.body.items.map((e: { id: number }) => e.id));

      // A period: the range of GET /v1/ledger.
      const later = await request(gateway.app).get("/console/api/ledger.csv").query({ chain_id: SEPOLIA, created_after: new Date(Date.now() + 60_000).toISOString() }).set(withCookie(ownerBrowser));
      expect(later.text.split("\r\n")).toEqual([lines[0], ""]);
    });

    it.each([
      ["an unknown chain", { chain_id: 1 }],
      ["an unknown kind", { kind: "bonus" }],
      ["a cursor", { cursor: "abc" }],
    ])("refuses %s with 400 invalid_query, as GET /v1/ledger does", async (_what, query) => {
      const res = await request(gateway.app).get("/console/api/ledger.csv").query(query).set(withCookie(browser));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_query");
    });
  });

  describe("the pages at /console", () => {
    it.each(["/console", "/console/", "/console/sweeps/0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1", "/console/sign-in"])("serves index.html at %s, not cached, with the CSP", async (page) => {
      const res = await request(gateway.app).get(page);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<div id="root"></div>');
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["content-security-policy"]).toBe(CSP);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
    });

    it("serves the hashed assets cached for a year", async () => {
      const res = await request(gateway.app).get("/console/assets/index-abc123.js");
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["content-security-policy"]).toBe(CSP);
    });

    it("answers an unknown console API path with 404 not_found in the API's shape, not the page", async () => {
      const res = await request(gateway.app).get("/console/api/nothing");
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect(res.headers["content-security-policy"]).toBe(CSP);
    });

    it("answers /console with 404 not_found in the API's shape before the pages are built", async () => {
      const unbuilt = await startTestGateway();
      try {
        const res = await request(unbuilt.app).get("/console/keys");
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: { code: "not_found", message: "the console is not built on this server" } });
      } finally {
        await unbuilt.close();
      }
    });
  });
});
