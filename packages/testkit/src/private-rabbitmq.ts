/**
 * A RabbitMQ node of a test's own, beside the machine's broker (which it never touches, as other
 * tests use it): its own node name, ports, data and log directories, and no plugins. A test points
 * a stack at it (`RABBITMQ_URL`) and stops and starts it to see the services through a broker restart.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "@sweep/anvil";
import { createLogger } from "@sweep/common";
import { connectBroker } from "@sweep/messaging";

export interface PrivateRabbitMQ {
  /** amqp://guest:guest@127.0.0.1:<its port> */
  url: string;
  /**
   * Stops the node, gracefully (SIGTERM, as an operator's restart) or as a crash (`crash`: SIGKILL),
   * waits `downMs`, and starts it again on the same data; resolves once it serves.
   */
  restart(downMs?: number, options?: { crash?: boolean }): Promise<void>;
  /** Stops the node and removes its directory. */
  stop(): Promise<void>;
}

/** The CLI tools' own distribution ports (RabbitMQ's fixed default range): the node leaves them free. */
const CLI_PORTS = { min: 35672, max: 35682 };
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;

const logger = createLogger("testkit-private-rabbitmq", "error");

/**
 * Debian's /usr/sbin/rabbitmq-server switches to the rabbitmq user (su), which drops the
 * environment that makes the node ours; the script it wraps runs as the caller. Elsewhere the
 * script on PATH is that one.
 */
function serverScript(): string {
  const wrapped = "/usr/lib/rabbitmq/bin/rabbitmq-server";
  return existsSync(wrapped) ? wrapped : "rabbitmq-server";
}

async function portOutsideCliRange(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < CLI_PORTS.min || port > CLI_PORTS.max) return port;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await (await connectBroker(url, { logger, connectTimeoutMs: 2_000 })).close();
    return true;
  } catch {
    return false;
  }
}

export async function startPrivateRabbitMQ(): Promise<PrivateRabbitMQ> {
  const dir = mkdtempSync(path.join(tmpdir(), "rabbitmq-"));
  const nodeName = `faults-${randomBytes(4).toString("hex")}@localhost`;
  const [port, distPort] = [await portOutsideCliRange(), await portOutsideCliRange()];
  const url = `amqp://guest:guest@127.0.0.1:${port}`;
  const file = (name: string) => path.join(dir, name);
  // Its own configuration, plugins and environment files: the machine's files name the shared broker's port and node.
  writeFileSync(file("rabbitmq.conf"), `listeners.tcp.1 = 127.0.0.1:${port}\n`);
  writeFileSync(file("enabled_plugins"), "[].\n");
  writeFileSync(file("rabbitmq-env.conf"), "");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The Erlang cookie is created in HOME: the node's own, no one else's.
    HOME: dir,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: file("mnesia"),
    RABBITMQ_LOG_BASE: file("log"),
    RABBITMQ_CONFIG_FILE: file("rabbitmq.conf"),
    RABBITMQ_ENABLED_PLUGINS_FILE: file("enabled_plugins"),
    RABBITMQ_CONF_ENV_FILE: file("rabbitmq-env.conf"),
    ERL_EPMD_ADDRESS: "127.0.0.1",
  };

  // The server script in the foreground, as our child: it runs the VM and turns a SIGTERM into a graceful stop.
  let node: { child: ChildProcess; exited: Promise<void> } | undefined;
  // A node killed by a signal has no exit code, only a signal code; its process group is gone.
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  // A test that dies never leaves the node running: the script and the VM share its process group.
  const killOnExit = () => {
    if (node?.child.pid !== undefined && running(node.child)) process.kill(-node.child.pid, "SIGKILL");
  };
  process.once("exit", killOnExit);

  const start = async () => {
    const child = spawn(serverScript(), [], { env, stdio: "ignore", detached: true });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    node = { child, exited };
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answers(url))) {
      if (!running(child)) throw new Error(`the private RabbitMQ node exited with ${child.exitCode ?? child.signalCode} (logs in ${file("log")})`);
      if (Date.now() > deadline) throw new Error(`the private RabbitMQ node did not answer within ${START_TIMEOUT_MS / 1000} s (logs in ${file("log")})`);
      await sleep(250);
    }
  };
  const halt = async (crash = false) => {
    if (!node || !running(node.child) || node.child.pid === undefined) return;
    const { child, exited } = node;
    // The VM is the script's child: a crash kills both at once, through their process group.
    if (crash) process.kill(-child.pid!, "SIGKILL");
    else child.kill("SIGTERM");
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  try {
    await start();
  } catch (err) {
    await halt();
    process.removeListener("exit", killOnExit);
    throw err;
  }
  return {
    url,
    restart: async (downMs = 0, options = {}) => {
      await halt(options.crash);
      await sleep(downMs);
      await start();
    },
    stop: async () => {
      await halt();
      process.removeListener("exit", killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
