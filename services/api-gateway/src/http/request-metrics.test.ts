import { httpRequestDuration } from "@sweep/metrics";
import express, { Router, type ErrorRequestHandler } from "express";
import request from "supertest";
import { requestMetrics, routeLabel } from "./request-metrics";

describe("the route label", () => {
  it.each<[string, { baseUrl: string; route?: { path: unknown } }, string]>([
    ["a route's template", { baseUrl: "", route: { path: "/v1/sweeps/:id" } }, "/v1/sweeps/:id"],
    ["under its router's mount path", { baseUrl: "/admin", route: { path: "/stats/:day" } }, "/admin/stats/:day"],
    ["unmatched without a route", { baseUrl: "" }, "unmatched"],
    ["unmatched for a route not given by a string", { baseUrl: "", route: { path: /^\/x/ } }, "unmatched"],
  ])("%s", (_name, req, label) => {
    expect(routeLabel(req as Parameters<typeof routeLabel>[0])).toBe(label);
  });
});

describe("request metrics", () => {
  // Shaped like the API: a check in front of /v1 that can refuse, routers mounted at the root with whole paths, a 404 and an error handler.
  const app = express();
  app.use(requestMetrics);
  app.get("/healthz", (_req, res) => {
    res.status(204).end();
  });
  app.use("/v1", (req, _res, next) => next(req.get("authorization") ? undefined : Object.assign(new Error("no key"), { status: 401 })));
  const sweeps = Router();
  sweeps.get("/v1/sweeps/:id", (req, res) => {
    res.json({ id: req.params.id });
  });
  sweeps.post("/v1/sweeps", () => {
    throw Object.assign(new Error("bad amount"), { status: 422 });
  });
  app.use(sweeps);
  const admin = Router();
  admin.get("/stats/:day", (_req, res) => {
    res.json({});
  });
  app.use("/admin", admin);
  app.use((_req, res) => {
    res.status(404).end();
  });
  const errors: ErrorRequestHandler = (err: { status: number }, _req, res, _next) => {
    res.status(err.status).end();
  };
  app.use(errors);

  beforeEach(() => httpRequestDuration.reset());

  const observed = async () =>
    (await httpRequestDuration.get()).values.filter((v) => v.metricName === "sweep_http_request_duration_seconds_count").map((v) => ({ ...v.labels, count: v.value }));

  it.each<[string, () => request.Test, { method: string; route: string; status: number }]>([
    ["a route with a parameter, by its template", () => request(app).get("/v1/sweeps/1b4e28ba-2fa1-11d2-883f-0016d3cca427").set("authorization", "k"), { method: "GET", route: "/v1/sweeps/:id", status: 200 }],
    ["a route whose handler threw, with the error's status", () => request(app).post("/v1/sweeps").set("authorization", "k"), { method: "POST", route: "/v1/sweeps", status: 422 }],
    ["a route of a router mounted under a path", () => request(app).get("/admin/stats/2026-01-01"), { method: "GET", route: "/admin/stats/:day", status: 200 }],
    ["a route of the app itself", () => request(app).get("/healthz"), { method: "GET", route: "/healthz", status: 204 }],
    ["an unknown path as unmatched", () => request(app).get("/v1/nothing/here/42").set("authorization", "k"), { method: "GET", route: "unmatched", status: 404 }],
    ["a request refused before routing as unmatched", () => request(app).get("/v1/sweeps/42"), { method: "GET", route: "unmatched", status: 401 }],
  ])("times %s", async (_name, send, labels) => {
    await send();
    expect(await observed()).toEqual([{ ...labels, count: 1 }]);
  });

  it("observes the time to the response", async () => {
    const slow = express();
    slow.use(requestMetrics);
    slow.get("/slow", (_req, res) => void setTimeout(() => res.end(), 50));
    await request(slow).get("/slow");
    const sum = (await httpRequestDuration.get()).values.find((v) => v.metricName === "sweep_http_request_duration_seconds_sum")!.value;
    expect(sum).toBeGreaterThanOrEqual(0.045);
    expect(sum).toBeLessThan(5);
  });
});
