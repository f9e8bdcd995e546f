import { randomBytes } from "node:crypto";
import { createLogger, generateApiKey } from "@sweep/common";
import { rateLimiterErrors } from "@sweep/metrics";
import Redis from "ioredis";
import request from "supertest";
import { RequestLimit } from "../src/rate-limits/request-limit";
import { consoleUserWithLink, signedInConsole } from "./console-support";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

// Each gateway counts under a prefix of its own: the suite's other tests share this Redis and 127.0.0.1.
const prefix = () => `ratelimit-test-${randomBytes(4).toString("hex")}`;
const rateLimited = { error: { code: "rate_limited", message: expect.stringMatching(/^too many requests .+; retry after 1 s$/) } };

describe("rate limits", () => {
  describe("per client address, before the key is checked", () => {
    let gateway: TestGateway;
    beforeAll(async () => (gateway = await startTestGateway({ rateLimits: { perAddressPerSecond: 3, keyPrefix: prefix() } })));
    afterAll(() => gateway.close());

    it("refuses a flood of made-up keys with 429 rate_limited and Retry-After once the address is over its limit", async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => request(gateway.app).get("/v1/hot-wallets").set({ Authorization: `Bearer ${generateApiKey("testnet")}` })),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
      for (const res of answers.filter((r) => r.status === 429)) {
        expect(res.headers["retry-after"]).toBe("1");
        expect(res.body).toEqual(rateLimited);
      }
    });
  });

  describe("per client address behind a load balancer (TRUST_PROXY)", () => {
    let gateway: TestGateway;
    beforeAll(async () => (gateway = await startTestGateway({ rateLimits: { perAddressPerSecond: 2, keyPrefix: prefix() }, trustProxy: 1 })));
    afterAll(() => gateway.close());

    const from = (client: string) => request(gateway.app).get("/v1/hot-wallets").set({ Authorization: `Bearer ${generateApiKey("testnet")}`, "X-Forwarded-For": client });

    it("counts each client the proxy names, not the proxy", async () => {
      const first = await Promise.all(Array.from({ length: 4 }, () => from("203.0.113.7")));
      expect(first.map((res) => res.status).sort()).toEqual([401, 401, 429, 429]);
      // Another client behind the same proxy has its own count.
      expect((await from("198.51.100.9")).status).toBe(401);
    });
  });

  describe("per API key, after authentication", () => {
    let gateway: TestGateway;
    beforeAll(async () => (gateway = await startTestGateway({ rateLimits: { perKeyPerSecond: 2, perKeyBurst: 2, keyPrefix: prefix() } })));
    afterAll(() => gateway.close());

    it("lets a key make its rate plus its burst, then answers 429 with Retry-After; another partner's key is not held back", async () => {
      const [busy, other] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
      // One request first, so the key's record is cached and the rest arrive within the same second.
      const statuses = [(await request(gateway.app).get("/v1/settings").set(busy.auth)).status];
      const rest = await Promise.all(Array.from({ length: 5 }, () => request(gateway.app).get("/v1/settings").set(busy.auth)));
      statuses.push(...rest.map((res) => res.status));
      expect(statuses.sort()).toEqual([200, 200, 200, 200, 429, 429]);
      const refused = rest.find((res) => res.status === 429)!;
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.body).toEqual(rateLimited);
      expect((await request(gateway.app).get("/v1/settings").set(other.auth)).status).toBe(200);
    });

    it("counts a console session as a key of its own: its partner's keys are not held back by it", async () => {
      const partner = await createTestPartner(gateway.db);
      const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
      const statuses = [(await request(gateway.app).get("/v1/settings").set("Cookie", browser.cookie)).status];
      const rest = await Promise.all(Array.from({ length: 5 }, () => request(gateway.app).get("/v1/settings").set("Cookie", browser.cookie)));
      statuses.push(...rest.map((res) => res.status));
      expect(statuses.sort()).toEqual([200, 200, 200, 200, 429, 429]);
      expect(rest.find((res) => res.status === 429)!.body).toEqual(rateLimited);
      expect((await request(gateway.app).get("/v1/settings").set(partner.auth)).status).toBe(200);
    });
  });

  describe("console sign-ins per client address", () => {
    let gateway: TestGateway;
    beforeAll(async () => (gateway = await startTestGateway({ rateLimits: { consoleSignInsPerMinute: 2, keyPrefix: prefix() } })));
    afterAll(() => gateway.close());

    it("refuses a third sign-in within the minute with 429 before checking anything, links and passwords alike", async () => {
      const partner = await createTestPartner(gateway.db);
      const { email, token } = await consoleUserWithLink(gateway.db, partner.partnerId);
      expect((await request(gateway.app).post("/console/api/sign-in").send({ email, password: "a wrong guess here" })).status).toBe(401);
      expect((await request(gateway.app).post("/console/api/sign-in").send({ email, password: "another wrong guess" })).status).toBe(401);
      const refused = await request(gateway.app).post("/console/api/sign-in/link").send({ token, password: "the right new password" });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: "rate_limited", message: expect.stringMatching(/^too many requests to sign in from this address; retry after \d+ s$/) } });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      // The link was not spent by the refused request.
      expect((await gateway.db.consoleSignInToken.findFirstOrThrow({ where: { user: { email } } })).usedAt).toBeNull();
    });
  });
});

describe("REDIS_KEY_PREFIX: two environments on one Redis", () => {
  // Both count under the default "ratelimit" space, as two deployments with their default settings would.
  const environments = [`staging-${randomBytes(3).toString("hex")}`, `testing-${randomBytes(3).toString("hex")}`];
  let gateways: TestGateway[];
  beforeAll(async () => (gateways = await Promise.all(environments.map((redisKeyPrefix) => startTestGateway({ rateLimits: { perAddressPerSecond: 2 }, redisKeyPrefix })))));
  afterAll(() => Promise.all(gateways.map((gateway) => gateway.close())));

  it("keeps each one's counts under its own prefix: one environment's flood does not limit the other's clients", async () => {
    const [flooded, quiet] = gateways as [TestGateway, TestGateway];
    const get = (gateway: TestGateway) => request(gateway.app).get("/v1/hot-wallets").set({ Authorization: `Bearer ${generateApiKey("testnet")}` });
    const flood = await Promise.all(Array.from({ length: 4 }, () => get(flooded)));
    expect(flood.map((res) => res.status).sort()).toEqual([401, 401, 429, 429]);
    expect((await get(quiet)).status).toBe(401);
    const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      for (const environment of environments) expect(await redis.keys(`${environment}:ratelimit:address:*`)).toHaveLength(1);
    } finally {
      await redis.quit();
    }
  });
});

describe("RequestLimit", () => {
  const logger = createLogger("rate-limit-test", "error");

  it("counts in Redis and tells how long to wait once over", async () => {
    const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      const limit = new RequestLimit(redis, { name: "webhook_test", points: 2, windowSeconds: 60, keyPrefix: prefix() }, logger);
      expect(await limit.take("partner-a")).toEqual({ allowed: true });
      expect(await limit.take("partner-a")).toEqual({ allowed: true });
      const over = await limit.take("partner-a");
      expect(over).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
      expect(over.allowed === false && over.retryAfterSeconds).toBeGreaterThan(55);
      expect(await limit.take("partner-b")).toEqual({ allowed: true });
    } finally {
      await redis.quit();
    }
  });

  it("lets requests through when Redis cannot be reached, and counts each in sweep_rate_limiter_errors_total", async () => {
    // Never connected: the state of a client whose Redis is down and reconnecting.
    const redis = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: 0 });
    const before = (await rateLimiterErrors.get()).values.find((v) => v.labels.limit === "key")?.value ?? 0;
    const limit = new RequestLimit(redis, { name: "key", points: 1, windowSeconds: 1, burst: { points: 1, windowSeconds: 10 }, keyPrefix: prefix() }, logger);
    for (let i = 0; i < 3; i++) expect(await limit.take("some-key")).toEqual({ allowed: true });
    const after = (await rateLimiterErrors.get()).values.find((v) => v.labels.limit === "key")?.value ?? 0;
    expect(after - before).toBe(3);
    redis.disconnect();
  });

  it("is off at 0 points", async () => {
    const redis = new Redis("redis://127.0.0.1:1", { lazyConnect: true });
    const limit = new RequestLimit(redis, { name: "address", points: 0, windowSeconds: 1, keyPrefix: prefix() }, logger);
    expect(await limit.take("anyone")).toEqual({ allowed: true });
    expect((await rateLimiterErrors.get()).values.find((v) => v.labels.limit === "address")?.value ?? 0).toBe(0);
    redis.disconnect();
  });
});
