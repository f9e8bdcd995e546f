import type { AddressInfo } from "node:net";
import type http from "node:http";
import { queueLag } from "@sweep/metrics";
import { startHealthServer } from "./health-server";
import { closeServer } from "./http-server";

describe("the health server", () => {
  let healthy = true;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = await startHealthServer(0, () => healthy);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => closeServer(server));

  it.each([
    ["GET /healthz while healthy", "GET", "/healthz", true, 204],
    ["GET /healthz while not", "GET", "/healthz", false, 503],
    ["an unknown path", "GET", "/nope", true, 404],
    ["another method on /metrics", "POST", "/metrics", true, 404],
  ])("answers %s", async (_name, method, path, isHealthy, status) => {
    healthy = isHealthy;
    expect((await fetch(`${base}${path}`, { method })).status).toBe(status);
  });

  it("serves the process's metrics as Prometheus text, the suite's and Node's", async () => {
    queueLag.observe({ queue: "health-server-test" }, 3);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const body = await res.text();
    expect(body).toContain('sweep_queue_lag_seconds_count{queue="health-server-test"} 1\n');
    expect(body).toContain("# TYPE sweep_sweeps_final_total counter\n");
    expect(body).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
