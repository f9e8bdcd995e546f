import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { anvilBinary } from "./anvil-binary";

export interface AnvilOptions {
  chainId: number;
  /** 0 picks a free port */
  port?: number;
  host?: string;
  /** seconds between blocks; undefined mines a block per transaction (automine) */
  blockTime?: number;
  /** anvil's state file: loaded at start, written on exit and every `stateInterval` seconds */
  stateFile?: string;
  stateInterval?: number;
  /** anvil's --gas-limit for blocks */
  gasLimit?: bigint;
  /** `--network optimism`: an OP-stack chain that charges each transaction an L1 data fee (set L1Block's values with setL1BlockFees) */
  optimism?: boolean;
  /**
   * Its own process group, so a terminal's Ctrl-C does not reach it: the owner stops it after the
   * processes that use it (`pnpm start` stops the services first, then the chains). Silent: it needs `port`.
   */
  detached?: boolean;
}

export interface AnvilNode {
  chainId: number;
  port: number;
  rpcUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One JSON-RPC call to a local node (a test node's own methods: hardhat_setCode, hardhat_setStorageAt); an error answer throws, naming the method. */
export async function nodeRpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** True when something answers JSON-RPC eth_chainId on the URL with the expected chain. */
export async function rpcAnswers(rpcUrl: string, chainId?: number, timeoutMs = 1_000): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { result?: string };
    return body.result !== undefined && (chainId === undefined || Number(body.result) === chainId);
  } catch {
    return false;
  }
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  const host = options.host ?? "127.0.0.1";
  // Without a port, port 0: anvil binds one the system picks. A port picked free here could be another node's by the time
  // anvil bound it, and a node of the same chain would then answer as this one: anvil says where it listens, and only a
  // detached anvil (whose output nobody reads once its starter is gone) is silent and trusted to hold the port it was given.
  const silent = options.detached ?? false;
  if (silent && !options.port) throw new Error("a detached anvil needs a port: it says nothing of the one the system would pick");
  const args = ["--chain-id", String(options.chainId), "--port", String(options.port || 0), "--host", host];
  if (silent) args.push("--silent");
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.stateFile) args.push("--state", options.stateFile);
  if (options.stateInterval) args.push("--state-interval", String(options.stateInterval));
  if (options.gasLimit) args.push("--gas-limit", options.gasLimit.toString());
  if (options.optimism) args.push("--network", "optimism");
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", silent ? "ignore" : "pipe", "pipe"], detached: silent });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 20_000;
  try {
    const port = silent ? options.port! : await announcedPort(child, /^Listening on .*:(\d+)\s*$/m, deadline);
    const rpcUrl = `http://${host}:${port}`;
    await untilAnswering(child, rpcUrl, options.chainId, deadline);
    return {
      chainId: options.chainId,
      port,
      rpcUrl,
      process: child,
      stop: () => stopProcess(child),
    };
  } catch (err) {
    child.kill("SIGKILL");
    throw new Error(`anvil ${err instanceof Error ? err.message : String(err)}: ${stderr.trim()}`);
  }
}

/**
 * The port a node started on port 0 says it listens on (the first group of `pattern`, matched against the
 * whole lines of its stdout, which is drained from then on). It rejects once the node exits, or at `deadline`, before saying so.
 */
export function announcedPort(child: ChildProcess, pattern: RegExp, deadline: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let said = "";
    const waitMs = Math.max(0, deadline - Date.now());
    const timer = setTimeout(() => settle(new Error(`did not say which port it listens on within ${Math.round(waitMs / 1000)} s`)), waitMs);
    const onExit = (code: number | null) => settle(new Error(`exited with ${code ?? child.signalCode} before it listened`));
    const onData = (chunk: Buffer) => {
      said += chunk.toString();
      // Whole lines only: a line cut between chunks would end in part of its port.
      const port = pattern.exec(said.slice(0, said.lastIndexOf("\n") + 1))?.[1];
      if (port) settle(Number(port));
    };
    const settle = (outcome: number | Error) => {
      clearTimeout(timer);
      child.off("exit", onExit);
      child.stdout!.off("data", onData);
      // What it prints after (anvil: each request's method) is read and dropped, so that its pipe never fills.
      child.stdout!.resume();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    child.once("exit", onExit);
    child.stdout!.on("data", onData);
  });
}

/** Resolves once the node answers as `chainId` on `rpcUrl`; rejects once it exits, or past `deadline`. */
export async function untilAnswering(child: ChildProcess, rpcUrl: string, chainId: number, deadline: number): Promise<void> {
  while (!(await rpcAnswers(rpcUrl, chainId, 500))) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`did not answer on ${rpcUrl} before its start's deadline`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM (anvil writes its state file on exit), SIGKILL after 5 s. */
export function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
