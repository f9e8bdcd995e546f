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
  /**
   * Its own process group, so a terminal's Ctrl-C does not reach it: the owner stops it after the
   * processes that use it (`pnpm start` stops the services first, then the chains).
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
  const port = options.port || (await freePort(host));
  const args = ["--chain-id", String(options.chainId), "--port", String(port), "--host", host, "--silent"];
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.stateFile) args.push("--state", options.stateFile);
  if (options.stateInterval) args.push("--state-interval", String(options.stateInterval));
  if (options.gasLimit) args.push("--gas-limit", options.gasLimit.toString());
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"], detached: options.detached ?? false });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const rpcUrl = `http://${host}:${port}`;
  const deadline = Date.now() + 20_000;
  while (!(await rpcAnswers(rpcUrl, options.chainId, 500))) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}: ${stderr.trim()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`anvil did not answer on ${rpcUrl} within 20 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    chainId: options.chainId,
    port,
    rpcUrl,
    process: child,
    stop: () => stopProcess(child),
  };
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
