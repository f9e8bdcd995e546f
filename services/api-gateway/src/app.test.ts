import { createLogger } from "@sweep/common";
import request from "supertest";
import { parse } from "yaml";
import { createApp } from "./app";

describe("api-gateway HTTP basics", () => {
  const app = createApp({ logger: createLogger("test", "error") });

  it("answers /healthz with 204 and no body, without a key", async () => {
    const res = await request(app).get("/healthz");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("serves the OpenAPI 3.1 document as application/yaml, without a key", async () => {
    const res = await request(app).get("/v1/openapi.yaml");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/yaml/);
    expect(parse(res.text).openapi).toBe("3.1.0");
  });

  it.each([
    ["malformed JSON", "{not json", /not valid JSON/],
    ["a body over 64 KiB", JSON.stringify({ pad: "x".repeat(65 * 1024) }), /64 KiB/],
  ])("refuses %s with 400 invalid_json in the spec's error shape", async (_what, body, message) => {
    const res = await request(app).post("/v1/sweeps").set("content-type", "application/json").send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_json", message: expect.stringMatching(message) } });
  });

  it("answers an unknown path with 404 not_found, never an HTML page", async () => {
    const res = await request(app).get("/v2/nothing");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});
