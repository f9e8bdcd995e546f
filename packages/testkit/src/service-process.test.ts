import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { defineTopology, deleteTopology } from "@sweep/messaging";
import { listeningPorts, logsListening, startService, type LogLine } from "./service-process";
import { ephemeralRange } from "./service-ports";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("listeningPorts", () => {
  const line = (fields: Record<string, unknown>): LogLine => ({ level: "info", ...fields }) as LogLine;
  it.each<[string, LogLine[], ReturnType<typeof listeningPorts>]>([
    ["nothing logged yet", [], undefined],
    ["not yet listening", [line({ message: "started" })], undefined],
    ["a health server", [line({ message: "started" }), line({ message: "listening", health: "http://127.0.0.1:40001", metrics: "http://127.0.0.1:40001/metrics" })], { port: 40001, metricsPort: 40001 }],
    ["the API and its management port", [line({ message: "listening", url: "http://127.0.0.1:40002", metrics: "http://127.0.0.1:40003/metrics" })], { port: 40002, metricsPort: 40003 }],
    ["an IPv6 address", [line({ message: "listening", health: "http://[::1]:40004", metrics: "http://[::1]:40004/metrics" })], { port: 40004, metricsPort: 40004 }],
  ])("%s", (_, lines, expected) => {
    expect(listeningPorts(lines)).toEqual(expected);
  });
});

describe("logsListening", () => {
  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ["debug", true],
    ["info", true],
    ["warn", false],
    ["error", false],
  ])("at LOG_LEVEL %s: %s", (level, logs) => {
    expect(logsListening(level)).toBe(logs);
  });
});

// A service of another stack answering on the port a service was meant to take: the stack must never take it for its own.
describe("startService, against a process answering on the service's port", () => {
  const prefix = `service-process-${randomBytes(4).toString("hex")}`;
  const env = { DATABASE_URL: process.env.DATABASE_URL!, AMQP_PREFIX: prefix };
  let impostor: Server;
  let impostorPort: number;

  beforeAll(async () => {
    impostor = createServer((_, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    impostorPort = (impostor.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => impostor.close(resolve));
    await deleteTopology(RABBITMQ_URL, defineTopology({ chainIds: environmentChainIds("testnet", {}), prefix }));
  });

  it("a restart on its old port, now another's, fails naming the port taken, instead of passing that process off as the service", async () => {
    await expect(startService("webhook-dispatcher", env, { port: impostorPort, metricsPort: impostorPort })).rejects.toThrow(/EADDRINUSE/);
  }, 60_000);

  it("a first start takes a port outside the ephemeral range and reads it off the service's own line; a restart finds it free", async () => {
    const service = await startService("webhook-dispatcher", env);
    expect(service.port).not.toBe(impostorPort);
    expect(service.port).toBeLessThan(ephemeralRange().low);
    expect((await fetch(`http://127.0.0.1:${service.port}/healthz`)).status).toBe(204);
    await service.stop();
    await expect(fetch(`http://127.0.0.1:${service.port}/healthz`)).rejects.toThrow();
    const restarted = await startService("webhook-dispatcher", env, service);
    expect(restarted.port).toBe(service.port);
    expect((await fetch(`http://127.0.0.1:${restarted.port}/healthz`)).status).toBe(204);
    await restarted.stop();
  }, 60_000);
});
