import { RequestLogEntry, RequestLogList } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import { randomUUID } from "node:crypto";
import request from "supertest";
import { deleteExpiredRequestLog } from "../src/requests/request-log-retention";
import { signedInConsole } from "./console-support";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

// A partner looks up one of its requests by the X-Request-Id its answer carried: method, route
// template, status, error code and time, for 30 days; never another account's, never a body or a query.

const DAY_MS = 86_400_000;

describe("the request log", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let other: TestPartner;
  beforeAll(async () => {
    gateway = await startTestGateway();
    [partner, other] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
  });
  afterAll(() => gateway.close());

  const lookUp = async (requestId: string, who: { Authorization: string } = partner.auth) => {
    await gateway.requestLog.flush();
    return request(gateway.app).get(`/v1/requests/${encodeURIComponent(requestId)}`).set(who);
  };
  const ownId = () => `test-${randomUUID()}`;

  it("finds a failed request by the id it was sent with: method, route template, status and error code", async () => {
    const id = ownId();
    const failed = await request(gateway.app).get(`/v1/sweeps/${randomUUID()}`).set(partner.auth).set("X-Request-Id", id);
    expect(failed.status).toBe(404);
    expect(failed.headers["x-request-id"]).toBe(id);

    const res = await lookUp(id);
    expect(res.status).toBe(200);
    expect(RequestLogEntry.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({ request_id: id, method: "GET", route: "/v1/sweeps/:id", status: 404, error_code: "not_found", created_at: expect.any(String), duration_ms: expect.any(Number) });
    expect(Date.now() - Date.parse(res.body.created_at)).toBeLessThan(60_000);
  });

  it("finds a request by the id the service gave it, with no error code when it succeeded", async () => {
    const ok = await request(gateway.app).get("/v1/tariff").set(partner.auth);
    expect(ok.status).toBe(200);
    expect((await lookUp(ok.headers["x-request-id"] as string)).body).toMatchObject({ method: "GET", route: "/v1/tariff", status: 200, error_code: null });
  });

  it("keeps the path of a request no route took, and never a body or a query string", async () => {
    const refused = await request(gateway.app).post("/v1/sweeps?secret=hunter2").set(partner.auth).set("Content-Type", "application/json").send('{"amount": "secret-body"');
    expect(refused.status).toBe(400);
    const res = await lookUp(refused.headers["x-request-id"] as string);
    expect(res.body).toMatchObject({ method: "POST", route: "/v1/sweeps", status: 400, error_code: "invalid_json" });
    const row = await gateway.db.requestLogEntry.findFirstOrThrow({ where: { requestId: res.body.request_id } });
    expect(JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))).not.toMatch(/secret|hunter2/);
  });

  it("records the console's requests, made with a session instead of a key, for the partner", async () => {
    const browser = await signedInConsole(gateway.app, gateway.db, partner.partnerId);
    const id = ownId();
    expect((await request(gateway.app).get("/v1/balance").set("Cookie", browser.cookie).set("X-Request-Id", id)).status).toBe(200);
    expect((await lookUp(id)).body).toMatchObject({ route: "/v1/balance", status: 200 });
  });

  it("answers 404 not_found for another account's request, an unknown id and a request no account made", async () => {
    const id = ownId();
    await request(gateway.app).get("/v1/settings").set(partner.auth).set("X-Request-Id", id);
    const anonymous = ownId();
    expect((await request(gateway.app).get("/v1/settings").set("X-Request-Id", anonymous)).status).toBe(401);
    for (const [requestId, who] of [
      [id, other.auth],
      [ownId(), partner.auth],
      [anonymous, partner.auth],
      ["not a request id", partner.auth],
    ] as const) {
      const res = await lookUp(requestId, who);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect(await gateway.db.requestLogEntry.count({ where: { requestId: anonymous } })).toBe(0);
  });

  it("lists the account's requests newest first, by status and error code, page by page", async () => {
    const lister = await createTestPartner(gateway.db);
    const sent: string[] = [];
    for (const path of ["/v1/tariff", `/v1/sweeps/${randomUUID()}`, "/v1/settings", `/v1/revocations/${randomUUID()}`]) {
      sent.push((await request(gateway.app).get(path).set(lister.auth)).headers["x-request-id"] as string);
    }
    await gateway.requestLog.flush();
    const list = async (query = "") => (await request(gateway.app).get(`/v1/requests${query}`).set(lister.auth)).body as RequestLogList;
    const all = await list();
    expect(RequestLogList.parse(all)).toEqual(all);
    expect(all.items.map((e) => e.request_id)).toEqual([...sent].reverse());
    expect((await list("?status=404")).items.map((e) => e.route)).toEqual(["/v1/revocations/:id", "/v1/sweeps/:id"]);
    expect((await list("?error_code=not_found&limit=1")).items.map((e) => e.request_id)).toEqual([sent[3]]);
    const first = await list("?limit=3");
    const second = await list(`?limit=3&cursor=${first.next_cursor}`);
    expect([...first.items, ...second.items].map((e) => e.request_id)).toEqual([...sent].reverse());
    expect(second.next_cursor).toBeNull();
    const refused = await request(gateway.app).get("/v1/requests?status=ok").set(lister.auth);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_query", message: expect.stringContaining("status") });
  });

  it("keeps a request 30 days: an older one is hidden, then deleted by the retention job", async () => {
    const entry = (requestId: string, ageDays: number) => ({
      partnerId: partner.partnerId,
      requestId,
      method: "GET",
      route: "/v1/balance",
      statusCode: 200,
      durationMs: 2,
      createdAt: new Date(Date.now() - ageDays * DAY_MS),
    });
    const [expired, kept] = [ownId(), ownId()];
    await gateway.db.requestLogEntry.createMany({ data: [entry(expired, 31), entry(kept, 29)] });
    expect((await lookUp(expired)).status).toBe(404);
    expect((await lookUp(kept)).status).toBe(200);

    expect(await deleteExpiredRequestLog(gateway.db, new Date(), 5_000)).toBeGreaterThanOrEqual(1);
    expect(await gateway.db.requestLogEntry.count({ where: { requestId: { in: [expired, kept] } } })).toBe(1);
    expect((await lookUp(kept)).body.request_id).toBe(kept);
  });
});
