import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { repoRoot } from "@sweep/db";
import { serviceBundle, serviceNodeArgs, type ServiceName } from "@sweep/service-bundles";
import { ephemeralRange, servicePort } from "./service-ports";

export type { ServiceName };

/** One line of a service's log (winston's JSON format). */
export type LogLine = Record<string, unknown> & { level: string; message: string };

export interface ServiceProcess {
  name: ServiceName;
  /** the process's id (the cluster primary's, when GATEWAY_WORKERS runs workers beside it) */
  pid: number;
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

/** A port taken by another process meanwhile: a first start asks for other ports this many times. */
const PORT_ATTEMPTS = 5;

/**
 * Runs a service as its own process (`node services/<name>/dist/main.js`, its bundle, as `pnpm start`
 * does) and waits until its /healthz answers 204.
 */
export async function startService(name: ServiceName, env: Record<string, string>, ports?: Pick<ServiceProcess, "port" | "metricsPort">): Promise<ServiceProcess> {
  // `ports` of a process that ended: a restarted service answers where its clients already call it. A restart that
  // finds its port taken fails, naming it (never passing another process off as the service). A first start asks for
  // ports outside the ephemeral range (see service-ports.ts), so that a restart finds them free, and asks again
  // elsewhere if one was taken meanwhile.
  if (ports) return launch(name, env, ports);
  for (let attempt = 1; ; attempt++) {
    const range = ephemeralRange();
    const port = servicePort(range) ?? 0;
    const metricsPort = name === "api-gateway" && port !== 0 ? (servicePort(range) ?? 0) : port;
    try {
      return await launch(name, env, { port, metricsPort });
    } catch (err) {
      if (attempt === PORT_ATTEMPTS || port === 0 || !(err instanceof PortTaken)) throw err;
    }
  }
}

class PortTaken extends Error {}

async function launch(name: ServiceName, env: Record<string, string>, ports: Pick<ServiceProcess, "port" | "metricsPort">): Promise<ServiceProcess> {
  const portVariable = name === "api-gateway" ? "PORT" : "HEALTH_PORT";
  const portsAsked = { [portVariable]: String(ports.port), ...(name === "api-gateway" ? { METRICS_PORT: String(ports.metricsPort) } : {}) };
  // SERVICE_NODE_FLAGS adds node flags to every service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile a bench.
  const nodeFlags = (process.env.SERVICE_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  if (!existsSync(serviceBundle(name))) throw new Error(`${serviceBundle(name)} is missing: run pnpm prepare-workspace (the jest run's global setup builds it)`);
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, ...serviceNodeArgs(name)], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: "debug", ...env, ...portsAsked },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // After its output: a process's last lines may still be on their way when it exits.
  const closed = new Promise((resolve) => child.once("close", resolve));
  const deadline = Date.now() + 60_000;
  let bound: Pick<ServiceProcess, "port" | "metricsPort"> | undefined;
  for (;;) {
    if (child.exitCode !== null) {
      await closed;
      const message = `${name} exited with ${child.exitCode}:\n${output}`;
      throw output.includes("EADDRINUSE") ? new PortTaken(message) : new Error(message);
    }
    // The service's own line says where it listens: what answers there is this process. A service run
    // quieter than info (a bench's LOG_LEVEL=warn) writes no such line: the ports it was given, then.
    bound ??= listeningPorts(parseLogLines(output)) ?? (logsListening(env.LOG_LEVEL) ? undefined : ports);
    try {
      if (bound && (await fetch(`http://127.0.0.1:${bound.port}/healthz`, { signal: AbortSignal.timeout(2_000) })).status === 204) break;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const { port, metricsPort } = bound;
  return {
    name,
    pid: child.pid!,
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

/** The ports a service's "listening" line names: the API's (`url`) or the health server's (`health`), and the metrics'. */
export function listeningPorts(lines: LogLine[]): Pick<ServiceProcess, "port" | "metricsPort"> | undefined {
  const line = lines.find((l) => l.message === "listening");
  if (!line) return undefined;
  const port = (field: unknown) => Number(new URL(String(field)).port);
  return { port: port(line.url ?? line.health), metricsPort: port(line.metrics) };
}

/** Whether a service at this LOG_LEVEL writes its info-level "listening" line (winston's npm levels). */
export function logsListening(level: string | undefined): boolean {
  return !["error", "warn"].includes(level ?? "debug");
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
