import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REALISTIC_L1_BLOCK_FEES, rpcAnswers, setL1BlockFees, startAnvil } from "@sweep/anvil";
import { DEFAULT_ENV_CHAINS, chainRegistry, devnetTokenAddress, rpcUrlsFor, type ChainInfo } from "@sweep/chains";
import type { Environment } from "@sweep/common";
import { repoRoot } from "@sweep/db";

/** Where the local chains keep their state between runs (gitignored). */
export const devnetStateDir = path.join(repoRoot, ".devnet");

/**
 * Seconds between anvil's state dumps besides the one on exit: a SIGKILL loses at most this much
 * of a chain. Each dump rewrites the whole file, which grows with the chain (about 1.7 kB a block).
 */
const STATE_INTERVAL_SECONDS = 2;

/** A local anvil: where it listens and where it keeps its state. */
export interface LocalChain {
  chainId: number;
  port: number;
  stateFile: string;
  /** an OP-stack chain: anvil in optimism mode, charging an L1 data fee at realistic L1Block values */
  optimism: boolean;
}

export interface ChainEndpoint {
  chain: ChainInfo;
  rpcUrl: string;
  /** Present when the chain runs locally, i.e. no RPC_URL_<chain_id> points at a real node. */
  local?: LocalChain;
}

/** The local OP-stack chain `pnpm start --with-op` adds. */
export const LOCAL_OP_STACK_CHAIN = 11155420;

/** ENV_CHAINS with the local OP-stack chain added (the testnet's default chains when unset). */
export function withOpStack(env: NodeJS.ProcessEnv): string {
  const listed = env.ENV_CHAINS ? env.ENV_CHAINS.split(",").map((id) => id.trim()) : DEFAULT_ENV_CHAINS.testnet.map(String);
  return [...new Set([...listed, String(LOCAL_OP_STACK_CHAIN)])].join(",");
}

/** The chains of an environment and where each is reached. */
export function chainEndpoints(environment: Environment, env: NodeJS.ProcessEnv = process.env, stateDir = devnetStateDir): ChainEndpoint[] {
  return chainRegistry(environment, devnetTokenAddress, env).map((chain) => {
    const isLocal = !env[`RPC_URL_${chain.chainId}`] && chain.devnetPort !== undefined;
    return {
      chain,
      // The platform goes through the first endpoint of a list: one deployment per chain, whichever node takes it.
      rpcUrl: rpcUrlsFor(chain, env)[0]!,
      local: isLocal ? { chainId: chain.chainId, port: chain.devnetPort!, stateFile: path.join(stateDir, `${chain.chainId}.json`), optimism: chain.feeModel === "op-stack" } : undefined,
    };
  });
}

export interface RunningChain {
  chainId: number;
  rpcUrl: string;
  /** The anvil this process started; undefined when a chain already answered and was reused. */
  process?: ChildProcess;
  /** Stops the anvil this process started (it writes its state file); a reused chain is left alone. */
  stop(): Promise<void>;
}

/**
 * Starts a local chain on its port with its state file, or reuses the chain already answering
 * there (a second `pnpm start`, or one started by hand), which is then not ours to stop.
 */
export async function startLocalChain(local: LocalChain, blockTime: number, log: (line: string) => void): Promise<RunningChain> {
  const rpcUrl = `http://127.0.0.1:${local.port}`;
  if (await rpcAnswers(rpcUrl, local.chainId)) {
    log(`chain ${local.chainId}: already running on ${rpcUrl}, reused (it keeps running after this stack stops)`);
    return { chainId: local.chainId, rpcUrl, stop: async () => {} };
  }
  if (await rpcAnswers(rpcUrl)) {
    throw new Error(`${rpcUrl} answers as another chain than ${local.chainId}: free port ${local.port} or set RPC_URL_${local.chainId}`);
  }
  fs.mkdirSync(path.dirname(local.stateFile), { recursive: true });
  const resumed = fs.existsSync(local.stateFile);
  const node = await startAnvil({
    chainId: local.chainId,
    port: local.port,
    blockTime,
    stateFile: local.stateFile,
    stateInterval: STATE_INTERVAL_SECONDS,
    detached: true,
    optimism: local.optimism,
  }).catch((err: Error) => {
    // A dump cut short by a SIGKILL leaves a file anvil cannot load.
    const hint = resumed ? ` (if ${local.stateFile} is damaged, \`pnpm sweepctl devnet reset\` starts chains and database afresh)` : "";
    throw new Error(`chain ${local.chainId}: ${err.message}${hint}`);
  });
  if (local.optimism) {
    // No sequencer writes L1Block's prices here: set at every start (a resumed state holds them too).
    await setL1BlockFees(node.rpcUrl, REALISTIC_L1_BLOCK_FEES).catch(async (err: Error) => {
      await node.stop();
      throw new Error(`chain ${local.chainId}: setting L1Block's fee values: ${err.message}`);
    });
  }
  const state = path.relative(process.cwd(), local.stateFile);
  const kind = local.optimism ? "anvil in optimism mode (an L1 data fee on every transaction)" : "anvil";
  log(`chain ${local.chainId}: ${kind} on ${node.rpcUrl}, a block every ${blockTime} s, state ${resumed ? "resumed from" : "kept in"} ${state}`);
  return { chainId: local.chainId, rpcUrl: node.rpcUrl, process: node.process, stop: () => node.stop() };
}

/** Starts (or reuses) every local chain; when one fails, stops those it started before failing. */
export async function startLocalChains(locals: LocalChain[], blockTime: number, log: (line: string) => void): Promise<RunningChain[]> {
  const results = await Promise.allSettled(locals.map((local) => startLocalChain(local, blockTime, log)));
  const started = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failure = results.find((r) => r.status === "rejected");
  if (failure) {
    await Promise.all(started.map((chain) => chain.stop()));
    throw failure.reason;
  }
  return started;
}
