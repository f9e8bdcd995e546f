import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { announcedPort, nodeRpc, stopProcess, untilAnswering, type AnvilNode } from "@sweep/anvil";

export interface HardhatNodeOptions {
  chainId: number;
  /** 0 picks a free port */
  port?: number;
  host?: string;
  /** seconds between blocks; undefined mines a block per transaction (automine) */
  blockTime?: number;
}

/** A running hardhat node: the same shape as an anvil, so that tests take either. */
export type HardhatNode = AnvilNode;

/** anvil's: the mnemonic of its (and hardhat's) public development accounts, 10 of them with 10,000 ether each. */
const ACCOUNTS = { mnemonic: "test test test test test test test test test test test junk", count: 10, accountsBalance: (10_000n * 10n ** 18n).toString() };
/** anvil's default block gas limit (hardhat's is 60M): the same batches fit on both. */
const BLOCK_GAS_LIMIT = 30_000_000;

/**
 * What anvil has in its genesis and hardhat lacks: the CREATE2 deployer (Arachnid's
 * deterministic-deployment-proxy), through which the platform contracts get their addresses.
 * (Its address is @sweep/chains' CREATE2_DEPLOYER; this package sits below @sweep/chains.)
 */
export const ANVIL_PREDEPLOYS: ReadonlyArray<{ address: string; code: string }> = [
  {
    address: "0x4e59b44847b379578588920cA78FbF26c0B4956C",
    code: "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3",
  },
];

/** The hardhat config of a node: Prague rules (EIP-7702), the chain id, automine or interval mining, no per-request logging. */
export function hardhatConfig(chainId: number, blockTime?: number): object {
  return {
    networks: {
      hardhat: {
        chainId,
        hardfork: "prague",
        mining: blockTime === undefined ? { auto: true } : { auto: false, interval: blockTime * 1000 },
        accounts: ACCOUNTS,
        blockGasLimit: BLOCK_GAS_LIMIT,
        // The node task logs every request otherwise: work for nothing on a shared machine.
        loggingEnabled: false,
      },
    },
  };
}

/**
 * Hardhat's node (EDR), started as `hardhat node` in a process of its own with a config written
 * to a temporary directory, and given what anvil predeploys: the second node implementation the
 * tests run on. Unlike anvil it has no eth_simulateV1 and refunds an authorization's 12,500 gas
 * only for an account that exists (EIP-7702).
 */
export async function startHardhatNode(options: HardhatNodeOptions): Promise<HardhatNode> {
  const host = options.host ?? "127.0.0.1";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-hardhat-"));
  const config = path.join(dir, "hardhat.config.js");
  fs.writeFileSync(config, `module.exports = ${JSON.stringify(hardhatConfig(options.chainId, options.blockTime), null, 2)};\n`);
  // Hardhat refuses to run unless it resolves from the working directory: this package's own. Without a port, port 0:
  // the node binds one the system picks and prints it (a port picked free here could be another node's by then).
  const cli = require.resolve("hardhat/internal/cli/cli.js");
  const child = spawn(process.execPath, [cli, "node", "--config", config, "--hostname", host, "--port", String(options.port || 0)], {
    cwd: path.dirname(require.resolve("../package.json")),
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const deadline = Date.now() + 30_000;
    const port = await announcedPort(child, /JSON-RPC server at http:\/\/.*:(\d+)\//, deadline);
    const rpcUrl = `http://${host}:${port}`;
    await untilAnswering(child, rpcUrl, options.chainId, deadline);
    await installAnvilPredeploys(rpcUrl);
    return {
      chainId: options.chainId,
      port,
      rpcUrl,
      process: child,
      stop: async () => {
        await stopProcess(child);
        removeDir();
      },
    };
  } catch (err) {
    child.kill("SIGKILL");
    removeDir();
    throw new Error(`hardhat node ${err instanceof Error ? err.message : String(err)}: ${stderr.trim()}`);
  }
}

/** Gives a hardhat node (2 or 3) what anvil has in its genesis: ANVIL_PREDEPLOYS. */
export async function installAnvilPredeploys(rpcUrl: string): Promise<void> {
  for (const { address, code } of ANVIL_PREDEPLOYS) await nodeRpc(rpcUrl, "hardhat_setCode", [address, code]);
}
