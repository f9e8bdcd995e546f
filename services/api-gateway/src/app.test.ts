import type express from "express";
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
    expect(Object.keys(doc.paths["/v1/revocations"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/revocations/{id}"])).toEqual(["get"]);
    for (const path of ["/v1/balance", "/v1/tariff", "/v1/ledger", "/v1/usage"]) expect([path, Object.keys(doc.paths[path])]).toEqual([path, ["get"]]);
    expect(Object.keys(doc.paths["/v1/settings"]).sort()).toEqual(["get", "patch"]);
    expect(Object.keys(doc.paths["/v1/webhook"]).sort()).toEqual(["delete", "get", "put"]);
    expect(Object.keys(doc.paths["/v1/webhook/deliveries"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/v1/webhook/test"])).toEqual(["post"]);
  });

  it("serves exactly the operations of its OpenAPI document, beside the console's own under /console and the API reference's pages under /docs", async () => {
    const doc = parse((await request(gateway.app).get("/v1/openapi.yaml")).text);
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(servedOperations(gateway.app).filter((operation) => !/^\/(console|docs)\b/.test(operation.split(" ")[1]!)).sort()).toEqual(documented.sort());
  });

  it("answers every documented operation but /healthz and the document itself with 401 without a key, and routes it with one", async () => {
    const doc = parse((await request(gateway.app).get("/v1/openapi.yaml")).text);
    const operations = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>).flatMap(([path, byMethod]) =>
      // Its own list, else the document's; the public operations override it with an empty one.
      Object.entries(byMethod).flatMap(([method, operation]) => ((operation.security ?? doc.security).length > 0 ? [{ method, path: path.replace("{id}", "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1") }] : [])),
    );
    expect(operations.map((o) => o.path)).toEqual(expect.arrayContaining(["/v1/revocations", "/v1/sweeps"]));
    for (const { method, path } of operations) {
      const call = (headers: Record<string, string>) => request(gateway.app)[method as "get" | "post" | "put" | "patch" | "delete"](path).set(headers).send(method === "get" ? undefined : {});
      expect([method, path, (await call({})).status]).toEqual([method, path, 401]);
      const routed = await call(auth);
      expect([method, path, routed.body.error?.message ?? ""]).not.toEqual([method, path, expect.stringMatching(/^no such endpoint/)]);
    }
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

/** Every method and path the app's routers answer, in the document's notation ({id} for :id). */
function servedOperations(app: express.Express): string[] {
  interface Layer {
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  }
  const operations: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) operations.push(...Object.keys(layer.route.methods).map((method) => `${method} ${layer.route!.path.replace(/:(\w+)/g, "{$1}")}`));
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return operations;
}
