/**
 * GATEWAY_WORKERS=2, the gateway's bundle as `pnpm start` runs it: two workers share the API's port and
 * both answer partners; each has its own /healthz and /metrics; one that dies is started again while
 * the other answers; SIGTERM stops them all.
 */
import { randomUUID } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { createDb, type Db } from "@sweep/db";
import { defineTopology, deleteTopology } from "@sweep/messaging";
import { createTestPartner, eventually, startService, type LogLine, type ServiceProcess, type TestPartner } from "@sweep/testkit";
import request from "supertest";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("the api-gateway with two workers", () => {
  let gateway: ServiceProcess | undefined;
  let db: Db;
  let partner: TestPartner;
  let api: string;
  const prefix = `gateway-workers-${randomUUID().slice(0, 8)}`;
  const workerLines = () => gateway!.logLines().filter((line) => line.message === "worker listening") as Array<LogLine & { worker: number; pid: number; metrics: string }>;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    partner = await createTestPartner(db, "workers");
    gateway = await startService("api-gateway", { DATABASE_URL: process.env.DATABASE_URL!, AMQP_PREFIX: prefix, REDIS_KEY_PREFIX: prefix, GATEWAY_WORKERS: "2" });
    api = `http://127.0.0.1:${gateway.port}`;
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await db?.$disconnect();
    await deleteTopology(RABBITMQ_URL, defineTopology({ chainIds: environmentChainIds("testnet"), prefix }));
  });

  it("runs two workers on the API's port, both answering partners, each with its own management port", async () => {
    const workers = workerLines();
    expect(workers.map((w) => w.worker).sort()).toEqual([1, 2]);
    expect(new Set(workers.map((w) => w.pid)).size).toBe(2);
    expect(workers.map((w) => Number(new URL(w.metrics).port)).sort()).toEqual([gateway!.metricsPort + 1, gateway!.metricsPort + 2]);

    // A connection each (supertest keeps none open): the primary hands them to both workers.
    for (let i = 0; i < 20; i++) expect((await request(api).get("/v1/tariff").set(partner.auth).timeout(5_000)).status).toBe(200);
    const served = new Set(gateway!.logLines().filter((line) => line.message === "request" && line.route === "/v1/tariff").map((line) => line.worker));
    expect([...served].sort()).toEqual([1, 2]);

    for (const { metrics } of workers) {
      const scraped = await fetch(metrics);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("process_cpu_seconds_total");
      expect((await fetch(metrics.replace(/\/metrics$/, "/healthz"))).status).toBe(204);
    }
    expect((await fetch(`http://127.0.0.1:${gateway!.metricsPort}/healthz`)).status).toBe(204);
  }, 60_000);

  it("starts a worker that died again while the other answers", async () => {
    const [first] = workerLines().filter((w) => w.worker === 1);
    process.kill(first!.pid, "SIGKILL");
    await eventually("the primary to see worker 1 die", async () => gateway!.logLines().some((line) => line.message === "gateway worker died; starting another" && line.worker === 1) || undefined, 10_000, 100);
    // Worker 2 takes every connection meanwhile.
    for (let i = 0; i < 5; i++) expect((await request(api).get("/v1/tariff").set(partner.auth).timeout(5_000)).status).toBe(200);
    const again = await eventually("worker 1 started again", async () => workerLines().find((w) => w.worker === 1 && w.pid !== first!.pid), 20_000, 200);
    expect(alive(again.pid)).toBe(true);
    await eventually("the primary healthy again", async () => ((await fetch(`http://127.0.0.1:${gateway!.metricsPort}/healthz`)).status === 204 ? true : undefined), 10_000, 200);
  }, 60_000);

  it("stops every worker on SIGTERM and exits 0", async () => {
    const pids = [...new Set(workerLines().map((w) => w.pid))];
    expect(await gateway!.stop()).toBe(0);
    gateway = undefined;
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);
});
