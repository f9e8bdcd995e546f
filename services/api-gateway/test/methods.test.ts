import request from "supertest";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

const id = "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1";

describe("methods a path does not have", () => {
  let gateway: TestGateway;
  let auth: { Authorization: string };
  beforeAll(async () => {
    gateway = await startTestGateway();
    auth = (await createTestPartner(gateway.db)).auth;
  });
  afterAll(() => gateway.close());

  it.each([
    ["OPTIONS", "/v1/sweeps", "GET, HEAD, POST"],
    ["OPTIONS", `/v1/sweeps/${id}`, "GET, HEAD"],
    ["OPTIONS", "/v1/webhook", "DELETE, GET, HEAD, PUT"],
    ["PUT", "/v1/sweeps", "GET, HEAD, POST"],
    ["DELETE", `/v1/sweeps/${id}`, "GET, HEAD"],
    ["PATCH", "/v1/hot-wallets", "GET, HEAD, POST"],
    ["TRACE", "/v1/sweeps", "GET, HEAD, POST"],
    ["GET", "/v1/webhook/test", "POST"],
  ])("answers %s %s with 404 not_found in the spec's shape and Allow: %s", async (method, path, allow) => {
    const res = await request(gateway.app)[method.toLowerCase() as "options"](path).set(auth);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers.allow).toBe(allow);
    expect(res.body).toEqual({ error: { code: "not_found", message: `${method} is not a method of ${path}; it answers ${allow}` } });
  });

  it.each([
    ["OPTIONS", "/v1/nothing"],
    ["OPTIONS", "/nothing"],
    ["OPTIONS", "/healthz"],
    ["PUT", "/v2/sweeps"],
  ])("answers %s %s, a path without routes of that method, 404 not_found (401 under /v1 without a key)", async (method, path) => {
    const res = await request(gateway.app)[method.toLowerCase() as "options"](path).set(auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    if (path === "/healthz") expect(res.headers.allow).toBe("GET, HEAD");
    const anonymous = await request(gateway.app)[method.toLowerCase() as "options"](path);
    expect(anonymous.status).toBe(path.startsWith("/v1/") ? 401 : 404);
    expect(anonymous.headers["content-type"]).toMatch(/^application\/json/);
  });

  it.each(["/v1/hot-wallets", "/v1/sweeps", "/v1/tariff"])("still answers HEAD %s like GET, without a body", async (path) => {
    const res = await request(gateway.app).head(path).set(auth);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.text ?? "").toBe("");
  });

  it("still answers HEAD /healthz 204 without a key", async () => {
    expect((await request(gateway.app).head("/healthz")).status).toBe(204);
  });
});
