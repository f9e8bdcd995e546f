import { randomBytes } from "node:crypto";
import { apiKeyCacheKey, apiKeyDisplayPrefix, hashApiKey } from "@sweep/credentials";
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
    ["its display prefix", (created: { api_key: string }) => apiKeyDisplayPrefix(created.api_key)],
    ["its display prefix as printed, with the ellipsis", (created: { api_key: string }) => `${apiKeyDisplayPrefix(created.api_key)}…`],
  ])("revokes a key given by %s, dropping its cached look-up", async (_what, given) => {
    const created = await newKey();
    const cacheKey = apiKeyCacheKey(hashApiKey(created.api_key));
    await redis.set(cacheKey, "cached", "EX", 60);
    const ctx = testContext(db, redis);
    await revokeKey(ctx, given(created));
    expect(ctx.out.results[0]).toMatchObject({ key_id: created.key_id, prefix: apiKeyDisplayPrefix(created.api_key) });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: created.key_id } })).revokedAt).not.toBeNull();
    expect(await redis.exists(cacheKey)).toBe(0);
  });

  it("refuses a display prefix two keys share, naming their ids, and revokes neither", async () => {
    const prefix = `svc_test_${randomBytes(3).toString("hex")}`;
    // One after the other: the message lists them oldest first.
    const first = await db.apiKey.create({ data: { partnerId, hash: randomBytes(32).toString("hex"), prefix } });
    const rows = [first, await db.apiKey.create({ data: { partnerId, hash: randomBytes(32).toString("hex"), prefix } })];
    await expect(revokeKey(testContext(db, redis), prefix)).rejects.toThrow(`2 API keys have prefix ${prefix}: give the key id, one of ${rows.map((r) => r.id).join(", ")}`);
    expect(await db.apiKey.count({ where: { prefix, revokedAt: { not: null } } })).toBe(0);
  });

  it("prints the new key's id and how to revoke it by that", async () => {
    const ctx = testContext(db, redis);
    await createKey(ctx, partnerId);
    const { key_id } = ctx.out.results[0] as { key_id: string };
    expect(key_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ctx.out.lines.join("\n")).toContain(`sweepctl key revoke ${key_id}`);
  });

  it.each([
    ["neither a key nor an id", "hello", /not an API key, key id or key prefix: "hello"/],
    ["an unknown prefix", "svc_test_zzzzzz", /no API key with prefix svc_test_zzzzzz/],
    ["an unknown key", "svc_test_doesnotexist", /no such API key/],
    ["an unknown id", "00000000-0000-4000-8000-000000000000", /no API key with id/],
  ])("refuses %s", async (_what, value, message) => {
    await expect(revokeKey(testContext(db, redis), value)).rejects.toThrow(message);
  });

  it("refuses a key for an unknown partner", async () => {
    await expect(createKey(testContext(db, redis), "00000000-0000-4000-8000-000000000000")).rejects.toThrow(/no partner with id/);
  });
});
