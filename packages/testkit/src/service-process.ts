import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "@sweep/anvil";
import { repoRoot } from "@sweep/db";
import { serviceBundle, serviceNodeArgs, type ServiceName } from "@sweep/service-bundles";

export type { ServiceName };

/** One line of a service's log (winston's JSON format). */
export type LogLine = Record<string, unknown> & { level: string; message: string };

export interface ServiceProcess {
  name: ServiceName;
  port: number;
  /** where GET /metrics answers: the health port, or the api-gateway's METRICS_PORT */
  metricsPort: number;
  /** everything it logged so far (JSON lines) */
  output(): string;
  /** the lines it logged so far, each parsed; what is no JSON line (a node warning), and a line still being written, left out */
  logLines(): LogLine[];
  /** SIGKILL: a crash, no shutdown */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit code */
  stop(): Promise<number | null>;
  /** resolves once the process ended, however it ended: its exit code, null after a signal */
  exited: Promise<number | null>;
}

/**
 * Runs a service as its own process (`node services/<name>/dist/main.js`, its bundle, as `pnpm start`
 * does) and waits until its /healthz answers 204.
 */
export async function startService(name: ServiceName, env: Record<string, string>, ports?: Pick<ServiceProcess, "port" | "metricsPort">): Promise<ServiceProcess> {
  // `ports` of a process that ended: a restarted service answers where its clients already call it.
  const port = ports?.port ?? (await freePort());
  const portVariable = name === "api-gateway" ? "PORT" : "HEALTH_PORT";
  // The api-gateway's management port too, never the default 8085 that `pnpm start` or another stack may hold.
  const metricsPort = ports?.metricsPort ?? (name === "api-gateway" ? await freePort() : port);
  // SERVICE_NODE_FLAGS adds node flags to every service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile a bench.
  const nodeFlags = (process.env.SERVICE_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  if (!existsSync(serviceBundle(name))) throw new Error(`${serviceBundle(name)} is missing: run pnpm prepare-workspace (the jest run's global setup builds it)`);
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, ...serviceNodeArgs(name)], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: "debug", ...env, [portVariable]: String(port), ...(name === "api-gateway" ? { METRICS_PORT: String(metricsPort) } : {}) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      // Ports picked here are free when picked, not when bound: another worker's process may take one between.
      if (!ports && output.includes("EADDRINUSE")) return startService(name, env);
      throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    }
    try {
      // Bounded: a reused port another process took since may accept and never answer.
      if ((await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })).status === 204) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    name,
    port,
    metricsPort,
    output: () => output,
    logLines: () => parseLogLines(output),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
    exited,
  };
}

/** The JSON lines of a service's output, each parsed (see `ServiceProcess.logLines`). */
export function parseLogLines(output: string): LogLine[] {
  // The text after the last newline is a line not yet complete.
  return output.split("\n").slice(0, -1).flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}
