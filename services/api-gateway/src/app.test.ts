import request from "supertest";
import { parse } from "yaml";
import { createTestPartner, startTestGateway, type TestGateway } from "../test/support";

describe("api-gateway HTTP basics", () => {
  let gateway: TestGateway;
  let auth: { Authorization: string };
  beforeAll(async () => {
    gateway = await startTestGateway();
    auth = (await createTestPartner(gateway.db)).auth;
  });
  afterAll(() => gateway.close());

  it("answers /healthz with 204 and no body, without a key", async () => {
    const res = await request(gateway.app).get("/healthz");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("serves the OpenAPI 3.1 document as application/yaml, without a key, listing every endpoint of the API", async () => {
    const res = await request(gateway.app).get("/v1/openapi.yaml");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/yaml/);
    const doc = parse(res.text);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths["/v1/hot-wallets"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/sweeps"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/sweeps/{id}"])).toEqual(["get"]);
  });

  it.each([
    ["malformed JSON", "{not json", /not valid JSON/],
    ["a body over 64 KiB", JSON.stringify({ pad: "x".repeat(65 * 1024) }), /64 KiB/],
  ])("refuses %s with 400 invalid_json in the spec's error shape", async (_what, body, message) => {
    const res = await request(gateway.app).post("/v1/sweeps").set(auth).set("content-type", "application/json").send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_json", message: expect.stringMatching(message) } });
  });

  it("reads no body before the key: a request without one is 401 whatever it sends", async () => {
    const res = await request(gateway.app).post("/v1/sweeps").set("content-type", "application/json").send("{not json");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
  });

  it("answers an unknown path with 404 not_found, never an HTML page", async () => {
    const res = await request(gateway.app).get("/v2/nothing");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("answers an unknown /v1 path of an authenticated partner with 404 not_found", async () => {
    const res = await request(gateway.app).delete("/v1/sweeps").set(auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("answers a malformed percent-encoding in a path with 404, not 500", async () => {
    const res = await request(gateway.app).get("/v1/sweeps/%E0%A4%A").set(auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});
