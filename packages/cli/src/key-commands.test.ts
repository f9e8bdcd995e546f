import { apiKeyCacheKey, hashApiKey } from "@sweep/common";
import type { Db } from "@sweep/db";
import type Redis from "ioredis";
import { createKey, revokeKey } from "./key-commands";
import { openTestConnections, testContext } from "./test-support";

describe("key commands", () => {
  let db: Db;
  let redis: Redis;
  let close: () => Promise<void>;
  let partnerId: string;
  beforeAll(async () => {
    ({ db, redis, close } = await openTestConnections());
    partnerId = (await db.partner.create({ data: { name: "keys", environment: "testnet" } })).id;
  });
  afterAll(() => close());

  async function newKey(): Promise<{ partner_id: string; key_id: string; api_key: string }> {
    const ctx = testContext(db, redis);
    await createKey(ctx, partnerId);
    return ctx.out.results[0] as { partner_id: string; key_id: string; api_key: string };
  }

  it("creates another key for the partner and stores only its hash", async () => {
    const created = await newKey();
    expect(created).toMatchObject({ partner_id: partnerId, api_key: expect.stringMatching(/^svc_test_/) });
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.key_id } });
    expect(row).toMatchObject({ partnerId, hash: hashApiKey(created.api_key), revokedAt: null });
    expect(JSON.stringify(row)).not.toContain(created.api_key);
  });

  it("revokes a key given as the key itself, dropping its cached look-up", async () => {
    const { api_key, key_id } = await newKey();
    const cacheKey = apiKeyCacheKey(hashApiKey(api_key));
    await redis.set(cacheKey, "cached", "EX", 60);

    const ctx = testContext(db, redis);
    await revokeKey(ctx, api_key);
    expect(ctx.out.results[0]).toMatchObject({ key_id, partner_id: partnerId, revoked_at: expect.any(String) });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key_id } })).revokedAt).not.toBeNull();
    expect(await redis.exists(cacheKey)).toBe(0);

    // A second revocation is an operator mistake, but still drops a look-up cached meanwhile.
    await redis.set(cacheKey, "cached", "EX", 60);
    await expect(revokeKey(testContext(db, redis), api_key)).rejects.toThrow(/was already revoked at /);
    expect(await redis.exists(cacheKey)).toBe(0);
  });

  it("revokes a key given by its id", async () => {
    const { key_id } = await newKey();
    await revokeKey(testContext(db, redis), key_id.toUpperCase());
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key_id } })).revokedAt).not.toBeNull();
  });

  it.each([
    ["neither a key nor an id", "hello", /not an API key or key id: "hello"/],
    ["an unknown key", "svc_test_doesnotexist", /no such API key/],
    ["an unknown id", "00000000-0000-4000-8000-000000000000", /no API key with id/],
  ])("refuses %s", async (_what, value, message) => {
    await expect(revokeKey(testContext(db, redis), value)).rejects.toThrow(message);
  });

  it("refuses a key for an unknown partner", async () => {
    await expect(createKey(testContext(db, redis), "00000000-0000-4000-8000-000000000000")).rejects.toThrow(/no partner with id/);
  });
});
