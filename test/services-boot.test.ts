import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { serviceNodeArgs, type ServiceName } from "@sweep/service-bundles";
import { listeningPorts, parseLogLines } from "../packages/testkit/src/service-process";
import { environmentChainIds } from "../packages/chains/src";
import { defineTopology } from "../packages/messaging/src/topology";
import { deleteTopology } from "../packages/messaging/src/topology-teardown";

const root = path.resolve(__dirname, "..");
// Queues of their own: with the default names these services would declare, and consume from, the
// queues of a `pnpm start` running on the same broker.
const AMQP_PREFIX = `boot-${randomBytes(4).toString("hex")}`;

interface Run {
  exitCode: Promise<number | null>;
  output: () => string;
  kill: (signal: NodeJS.Signals) => void;
}

function runService(name: ServiceName, env: Record<string, string>): Run {
  // As `pnpm start` runs them: node on the service's bundle, no wrapper process (which may pass a signal on twice).
  const child = spawn(process.execPath, serviceNodeArgs(name), {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "info", AMQP_PREFIX, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return {
    exitCode: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
    output: () => output,
    kill: (signal) => child.kill(signal),
  };
}

/** The ports the service's "listening" line names, once it logged it. */
async function listening(run: Run, timeoutMs = 30_000): Promise<{ port: number; metricsPort: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ports = listeningPorts(parseLogLines(run.output()));
    if (ports) return ports;
    if (Date.now() > deadline) throw new Error(`no "listening" line:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function waitForHealth(url: string, run: Run, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      return res.status;
    } catch {
      if (Date.now() > deadline) throw new Error(`no answer from ${url}:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const services = [
  ["api-gateway", "PORT"],
  ["batcher", "HEALTH_PORT"],
  ["chain-sender", "HEALTH_PORT"],
  ["ledger", "HEALTH_PORT"],
  ["webhook-dispatcher", "HEALTH_PORT"],
] as const;

describe("each service boots as its own process", () => {
  afterAll(async () => {
    await deleteTopology(process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672", defineTopology({ chainIds: environmentChainIds("testnet", {}), prefix: AMQP_PREFIX }));
  });

  it.each(services)("%s binds the port the system picks for 0, logs where it listens, answers /healthz with 204 and /metrics, and stops cleanly on SIGTERM", async (name, portVariable) => {
    // Port 0, as the tests' stacks start services: a port picked free here could be another process's before the service binds it.
    const run = runService(name, { [portVariable]: "0", ...(name === "api-gateway" ? { METRICS_PORT: "0" } : {}) });
    const { port, metricsPort } = await listening(run);
    expect(port).toBeGreaterThan(0);
    expect(await waitForHealth(`http://127.0.0.1:${port}/healthz`, run)).toBe(204);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    run.kill("SIGTERM");
    expect(await run.exitCode).toBe(0);
    const lines = run.output().trim().split("\n");
    const logs = lines.map((line) => JSON.parse(line) as { service: string; message: string });
    expect(logs.every((l) => l.service === name)).toBe(true);
    expect(logs.map((l) => l.message)).toEqual(expect.arrayContaining(["started", "shutting down", "stopped"]));
  });

  it.each<[ServiceName, Record<string, string>, string]>([
    ["batcher", { HEALTH_PORT: "eighty" }, "HEALTH_PORT"],
    ["chain-sender", { CHAINS: "97,abc" }, "CHAINS"],
    ["api-gateway", { DATABASE_URL: "mysql://nope" }, "DATABASE_URL"],
    ["ledger", { SERVICE_ENV: "staging" }, "SERVICE_ENV"],
    ["webhook-dispatcher", { ENV_CHAINS: "97,1" }, "ENV_CHAINS"],
  ])("%s refuses to start on a malformed variable and names it", async (name, env, variable) => {
    const run = runService(name, env);
    expect(await run.exitCode).toBe(1);
    const first = JSON.parse(run.output().trim().split("\n")[0]!) as { level: string; message: string };
    expect(first.level).toBe("error");
    expect(first.message).toContain(variable);
  });

  it.each<ServiceName>(["api-gateway", "chain-sender"])("%s refuses a chain added half-described in one message, naming every variable and no value", async (name) => {
    const run = runService(name, { ENV_CHAINS: "97,421614,777001", RPC_URL_421614: "https://arbitrum-sepolia.example/secret-key", FEE_MODEL_777001: "bumpy", CHAIN_NAME_777001: "Acme", TOKENS_777001: "USDT:6" });
    expect(await run.exitCode).toBe(1);
    const errors = run
      .output()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: string; message: string })
      .filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    const { message } = errors[0]!;
    for (const named of ["NATIVE_TICKER_777001", "CONFIRMATIONS_777001", "BLOCK_TIME_MS_777001", "TOKEN_777001_USDT", "RPC_URL_777001", "MAX_FEE_PER_GAS_777001", "MAX_PRIORITY_FEE_PER_GAS_777001", "FEE_MODEL_777001"]) {
      expect(message).toContain(named);
    }
    expect(message).not.toContain("CHAIN_NAME_777001");
    expect(message).not.toContain("secret-key");
  });

  it("refuses to start on mainnet half-configured, naming every missing variable in one message and no value", async () => {
    // Nodes named but never reached: the configuration stops the process first.
    const run = runService("ledger", { SERVICE_ENV: "mainnet", RPC_URL_1: "https://eth.example/v3/secret-key", RPC_URL_56: "https://bsc.example/secret-key", CONFIRMATIONS_56: "3", MAX_FEE_PER_GAS_1: "60000000000" });
    expect(await run.exitCode).toBe(1);
    const lines = run.output().trim().split("\n");
    const errors = lines.map((line) => JSON.parse(line) as { level: string; message: string }).filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    const { message } = errors[0]!;
    for (const variable of ["CLASSIC_GAS_1_USDT", "MAX_PRIORITY_FEE_PER_GAS_1", "CLASSIC_GAS_56_USDT", "MAX_FEE_PER_GAS_56", "MAX_PRIORITY_FEE_PER_GAS_56", "CONFIRMATIONS_56"]) expect(message).toContain(variable);
    expect(message).not.toContain("MAX_FEE_PER_GAS_1 ");
    expect(message).not.toMatch(/secret-key|60000000000/);
  });
});
