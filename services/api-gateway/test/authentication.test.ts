import { apiKeyCacheKey, apiKeyDisplayPrefix, generateApiKey, hashApiKey, invalidatePartnerKeys } from "@sweep/credentials";
import request from "supertest";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

/** A cached look-up is `<mac>.<json>`. */
const cachedBody = (value: string | null) => JSON.parse(value!.slice(value!.indexOf(".") + 1));

describe("authentication", () => {
  let gateway: TestGateway;
  beforeAll(async () => (gateway = await startTestGateway()));
  afterAll(() => gateway.close());

  const list = (headers: Record<string, string>) => request(gateway.app).get("/v1/hot-wallets").set(headers);

  it("admits a partner's key and answers its endpoints", async () => {
    const partner = await createTestPartner(gateway.db);
    const res = await list(partner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hot_wallets: [] });
  });

  it.each([
    ["no Authorization header", {}],
    ["another scheme", { Authorization: "Basic c3ZjX3Rlc3RfOg==" }],
    ["a malformed bearer value", { Authorization: "Bearer svc test" }],
    ["an unknown testnet key", { Authorization: `Bearer ${generateApiKey("testnet")}` }],
    ["a key of no environment", { Authorization: "Bearer sk_test_abcdef" }],
  ])("refuses %s with 401 unauthorized", async (_what, headers) => {
    const res = await list(headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("refuses a live (mainnet) key on the testnet API with 401, also one stored for a partner", async () => {
    const partner = await createTestPartner(gateway.db);
    const liveKey = generateApiKey("mainnet");
    await gateway.db.apiKey.create({ data: { partnerId: partner.partnerId, hash: hashApiKey(liveKey), prefix: apiKeyDisplayPrefix(liveKey) } });
    const res = await list({ Authorization: `Bearer ${liveKey}` });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
  });

  it("refuses a svc_test_ key of a mainnet partner with 401", async () => {
    const partner = await createTestPartner(gateway.db);
    await gateway.db.partner.update({ where: { id: partner.partnerId }, data: { environment: "mainnet" } });
    const res = await list(partner.auth);
    expect(res.status).toBe(401);
  });

  it("answers 403 partner_disabled on every request of a disabled partner", async () => {
    const partner = await createTestPartner(gateway.db);
    await gateway.db.partner.update({ where: { id: partner.partnerId }, data: { enabled: false } });
    for (const req of [
      request(gateway.app).get("/v1/hot-wallets"),
      request(gateway.app).post("/v1/hot-wallets").send({ chain_id: 97, address: "0x52908400098527886E0F7030069857D2E4169EE7" }),
      request(gateway.app).get("/v1/sweeps"),
      request(gateway.app).post("/v1/sweeps").send({}),
      request(gateway.app).get("/v1/sweeps/0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1"),
      request(gateway.app).get("/v1/revocations"),
      request(gateway.app).post("/v1/revocations").send({}),
      request(gateway.app).get("/v1/revocations/0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1"),
    ]) {
      const res = await req.set(partner.auth);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("partner_disabled");
    }
  });

  it("refuses a revoked key with 401 also after its look-up was cached, once sweepctl dropped the cache", async () => {
    const partner = await createTestPartner(gateway.db);
    const hash = hashApiKey(partner.apiKey);
    expect((await list(partner.auth)).status).toBe(200);
    expect(cachedBody(await gateway.redis.get(apiKeyCacheKey(hash)))).toMatchObject({ found: true, record: { partnerId: partner.partnerId, revoked: false } });

    // What `sweepctl key revoke` does: the database first, then the cached look-up.
    await gateway.db.apiKey.update({ where: { hash }, data: { revokedAt: new Date() } });
    await invalidatePartnerKeys(gateway.redis, [hash]);

    expect((await list(partner.auth)).status).toBe(401);
    expect((await list(partner.auth)).status).toBe(401);
  });

  it("refuses a partner disabled after its key was cached, and admits it again once enabled", async () => {
    const partner = await createTestPartner(gateway.db);
    const hash = hashApiKey(partner.apiKey);
    expect((await list(partner.auth)).status).toBe(200);

    await gateway.db.partner.update({ where: { id: partner.partnerId }, data: { enabled: false } });
    await invalidatePartnerKeys(gateway.redis, [hash]);
    expect((await list(partner.auth)).status).toBe(403);

    await gateway.db.partner.update({ where: { id: partner.partnerId }, data: { enabled: true } });
    await invalidatePartnerKeys(gateway.redis, [hash]);
    expect((await list(partner.auth)).status).toBe(200);
  });

  it("does not cache an answer read before a revocation that dropped the cache meanwhile", async () => {
    const partner = await createTestPartner(gateway.db);
    const hash = hashApiKey(partner.apiKey);
    const cacheKey = apiKeyCacheKey(hash);
    const findUnique = gateway.db.apiKey.findUnique.bind(gateway.db.apiKey);
    // The revocation lands while the gateway is reading the key: after its read, before its cache write.
    const spy = jest.spyOn(gateway.db.apiKey, "findUnique").mockImplementationOnce(((args: Parameters<typeof findUnique>[0]) =>
      findUnique(args).then(async (row) => {
        await gateway.db.apiKey.update({ where: { hash }, data: { revokedAt: new Date() } });
        await invalidatePartnerKeys(gateway.redis, [hash]);
        return row;
      })) as never);
    try {
      expect((await list(partner.auth)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(await gateway.redis.get(cacheKey)).toBeNull();
    expect((await list(partner.auth)).status).toBe(401);
  });

  it("treats a cache entry it cannot read as a miss", async () => {
    const partner = await createTestPartner(gateway.db);
    await gateway.redis.set(apiKeyCacheKey(hashApiKey(partner.apiKey)), "{not json", "EX", 30);
    expect((await list(partner.auth)).status).toBe(200);
  });

  it("keeps answering from the database when Redis fails", async () => {
    const partner = await createTestPartner(gateway.db);
    const spy = jest.spyOn(gateway.redis, "get").mockRejectedValue(new Error("connection lost"));
    try {
      expect((await list(partner.auth)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
  });
});
