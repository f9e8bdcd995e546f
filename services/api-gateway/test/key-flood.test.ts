import { randomBytes } from "node:crypto";
import { apiKeyCacheKey, generateApiKey, hashApiKey } from "@sweep/credentials";
import request from "supertest";
import { defaultLookupLimits } from "../src/auth/api-key-lookup";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

describe("a flood of made-up API keys", () => {
  let gateway: TestGateway;
  beforeAll(async () => (gateway = await startTestGateway()));
  afterAll(() => gateway.close());

  const list = (key: string) => request(gateway.app).get("/v1/hot-wallets").set("Authorization", `Bearer ${key}`);

  /** Counts the key look-ups that reach the database, and the most at once of keys other than `known`. */
  function watchLookups(known?: string) {
    const findUnique = gateway.db.apiKey.findUnique.bind(gateway.db.apiKey);
    let inFlight = 0;
    const seen = { calls: 0, peak: 0 };
    const spy = jest.spyOn(gateway.db.apiKey, "findUnique").mockImplementation(((args: Parameters<typeof findUnique>[0]) => {
      seen.calls++;
      if (args.where.hash === known) return findUnique(args);
      seen.peak = Math.max(seen.peak, ++inFlight);
      return findUnique(args).finally(() => inFlight--);
    }) as never);
    return { seen, restore: () => spy.mockRestore() };
  }

  it.each([
    ["too short", `svc_test_${randomBytes(8).toString("hex")}`],
    ["too long", `svc_test_${randomBytes(40).toString("base64url")}`],
    ["with bits past 32 bytes", `svc_test_${"A".repeat(42)}B`],
  ])("refuses a key %s with 401 and no look-up at all", async (_what, key) => {
    const watch = watchLookups();
    try {
      const res = await list(key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "unauthorized", message: "the API key is malformed: check it was copied whole" } });
      expect(watch.seen.calls).toBe(0);
    } finally {
      watch.restore();
    }
  });

  it("keeps the look-ups of unknown keys within the bound while a partner's requests go through", async () => {
    const partner = await createTestPartner(gateway.db);
    // Its key found once: cached in Redis, and known to this process should the cache be gone.
    expect((await list(partner.apiKey)).status).toBe(200);
    const watch = watchLookups(hashApiKey(partner.apiKey));
    try {
      const flood = Array.from({ length: 400 }, () => list(generateApiKey("testnet")).then((res) => res));
      const partnerRequests = Array.from({ length: 20 }, async (_, i) => {
        // Every other one without its cached look-up: read from the database, past the gate.
        if (i % 2 === 1) await gateway.redis.del(apiKeyCacheKey(hashApiKey(partner.apiKey)));
        return list(partner.apiKey);
      });
      const [flooded, served] = await Promise.all([Promise.all(flood), Promise.all(partnerRequests)]);

      expect(served.map((res) => res.status)).toEqual(served.map(() => 200));
      for (const res of flooded) {
        expect([401, 500]).toContain(res.status);
        expect(res.body).toEqual({ error: { code: res.status === 401 ? "unauthorized" : "internal", message: expect.any(String) } });
      }
      // Made-up keys got at most the gate's reads at once, and had them.
      expect(watch.seen.peak).toBe(defaultLookupLimits.concurrency);
      // Those beyond the waiting bound were answered without a read, and asked to retry.
      const refused = flooded.filter((res) => res.status === 500);
      expect(refused.every((res) => res.body.error.message === "too many API keys being checked at once; retry later")).toBe(true);
      expect(watch.seen.calls).toBeLessThanOrEqual(400 - refused.length + 20);
    } finally {
      watch.restore();
    }
  });
});
