import { apiKeyCacheKey, generateApiKey, hashApiKey } from "@sweep/credentials";
import request from "supertest";
import { CacheSeal, DEVELOPMENT_CACHE_SECRET } from "../src/auth/cache-seal";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

/** What an attacker with write access to Redis, but not the secret, could put there. */
function forgeries(cacheKey: string, lookup: object): [string, string][] {
  const body = JSON.stringify(lookup);
  return [
    ["a bare record (the format before MACs)", body],
    ["a record with a made-up MAC", `${"A".repeat(43)}.${body}`],
    ["a record signed under another secret", new CacheSeal("not-the-server-secret-but-long-enough").seal(cacheKey, body)],
  ];
}

describe("cached API key look-ups carry a MAC", () => {
  let gateway: TestGateway;
  beforeAll(async () => (gateway = await startTestGateway()));
  afterAll(() => gateway.close());

  const list = (key: string) => request(gateway.app).get("/v1/hot-wallets").set("Authorization", `Bearer ${key}`);

  it("signs what it caches, under the key's own slot", async () => {
    const partner = await createTestPartner(gateway.db);
    const cacheKey = apiKeyCacheKey(hashApiKey(partner.apiKey));
    expect((await list(partner.apiKey)).status).toBe(200);
    const body = new CacheSeal(DEVELOPMENT_CACHE_SECRET).open(cacheKey, (await gateway.redis.get(cacheKey))!);
    expect(JSON.parse(body!)).toMatchObject({ found: true, record: { partnerId: partner.partnerId } });
  });

  it("does not let a record written into Redis mint a partner for a key that does not exist", async () => {
    const victim = await createTestPartner(gateway.db);
    const key = generateApiKey("testnet");
    const hash = hashApiKey(key);
    const cacheKey = apiKeyCacheKey(hash);
    const record = { hash, partnerId: victim.partnerId, revoked: false, enabled: true, environment: "testnet", gasWallet: victim.gasWallet };
    for (const [what, forged] of forgeries(cacheKey, { found: true, record })) {
      await gateway.redis.set(cacheKey, forged, "EX", 60);
      const res = await list(key);
      expect([what, res.status, res.body.error?.code]).toEqual([what, 401, "unauthorized"]);
      // Read again from the database and replaced by the signed answer: no such key.
      const cached = await gateway.redis.get(cacheKey);
      expect([what, JSON.parse(new CacheSeal(DEVELOPMENT_CACHE_SECRET).open(cacheKey, cached!)!)]).toEqual([what, { found: false, hash }]);
    }
  });

  it("does not let a forged record lock a partner out, or move its key to another partner", async () => {
    const partner = await createTestPartner(gateway.db);
    const other = await createTestPartner(gateway.db);
    await request(gateway.app).post("/v1/hot-wallets").set(other.auth).send({ chain_id: 97, address: "0x52908400098527886E0F7030069857D2E4169EE7" });
    const hash = hashApiKey(partner.apiKey);
    const cacheKey = apiKeyCacheKey(hash);
    const cases = [
      ...forgeries(cacheKey, { found: false, hash }),
      ...forgeries(cacheKey, { found: true, record: { hash, partnerId: partner.partnerId, revoked: true, enabled: true, environment: "testnet", gasWallet: partner.gasWallet } }),
      ...forgeries(cacheKey, { found: true, record: { hash, partnerId: other.partnerId, revoked: false, enabled: true, environment: "testnet", gasWallet: other.gasWallet } }),
    ];
    for (const [what, forged] of cases) {
      await gateway.redis.set(cacheKey, forged, "EX", 60);
      const res = await list(partner.apiKey);
      // Its own (empty) list, not the other partner's hot wallet.
      expect([what, res.status, res.body]).toEqual([what, 200, { hot_wallets: [] }]);
    }
  });

  it("does not accept a signed record moved from another key's slot", async () => {
    const partner = await createTestPartner(gateway.db);
    expect((await list(partner.apiKey)).status).toBe(200);
    const signed = (await gateway.redis.get(apiKeyCacheKey(hashApiKey(partner.apiKey))))!;
    const key = generateApiKey("testnet");
    await gateway.redis.set(apiKeyCacheKey(hashApiKey(key)), signed, "EX", 60);
    expect((await list(key)).status).toBe(401);
  });
});
