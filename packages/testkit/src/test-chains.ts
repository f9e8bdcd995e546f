import { REALISTIC_L1_BLOCK_FEES, setL1BlockFees, startAnvil, type AnvilNode } from "@sweep/anvil";
import { startHardhatNode } from "@sweep/hardhat-node";
import { startHardhatOpNode } from "@sweep/hardhat-op-node";
import { chainRegistry, devnetTokenAddress } from "@sweep/chains";
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { contractAt } from "@sweep/contracts";
import { deployPlatformContracts } from "@sweep/devnet";
import type { Contract } from "ethers";

/**
 * The node implementations the suite runs on: anvil (the default) and hardhat's EDR; and two OP-stack
 * chains with L1Block's fee values set, for chains configured op-stack: anvil in optimism mode (type-4
 * taken, no l1Fee in its receipts) and Hardhat 3's node (`hardhat-op`: l1Fee in its receipts, type-4
 * refused, automine only).
 */
export type NodeKind = "anvil" | "hardhat" | "anvil-optimism" | "hardhat-op";
/** The node kinds of an L1 chain, for the stories that run on each (`describe.each(NODE_KINDS)`). */
export const NODE_KINDS: readonly NodeKind[] = ["anvil", "hardhat"];

/** A running node of either kind: where it answers, its process, and how to stop it. */
export interface ChainNode extends AnvilNode {
  kind: NodeKind;
}

/**
 * A test's own calls to its chain wait out a stalled node (the fault run stops one for 30 s), as
 * ethers' default of five minutes did; the services keep their own, shorter timeouts.
 */
const TEST_CALL_TIMEOUT_MS = 300_000;

export interface TestChainOptions {
  /** seconds between blocks; undefined mines a block per transaction */
  blockTime?: number;
  /** which node implementation runs the chain; anvil by default */
  node?: NodeKind;
  /** the services' variables: a chain added by configuration is described there (its tokens, their addresses) */
  env?: NodeJS.ProcessEnv;
}

/** A test's connection to a running chain: where it answers, its devnet USDT, and the faucet's calls. */
export interface ChainConnection {
  chainId: number;
  rpcUrl: string;
  provider: ChainProvider;
  /** the devnet USDT of this chain */
  usdt: { address: string; decimals: number };
  setBalance(address: string, wei: bigint): Promise<void>;
  mintUsdt(to: string, amount: bigint): Promise<void>;
  /** ends this connection; the node runs on */
  disconnect(): void;
}

/** A chain a test started: its connection, its node, and how to stop it. */
export interface TestChain extends ChainConnection {
  node: ChainNode;
  /** RPC_URL_<chain_id> for services pointed at this chain */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts a node of the kind asked for. */
export async function startNode(kind: NodeKind, chainId: number, blockTime?: number): Promise<ChainNode> {
  if (kind === "anvil-optimism" || kind === "hardhat-op") {
    if (kind === "hardhat-op" && blockTime !== undefined) throw new Error("Hardhat 3's OP node runs on automine here: no block time");
    const node = kind === "hardhat-op" ? await startHardhatOpNode({ chainId }) : await startAnvil({ chainId, blockTime, optimism: true });
    try {
      await setL1BlockFees(node.rpcUrl, REALISTIC_L1_BLOCK_FEES);
    } catch (err) {
      await node.stop();
      throw err;
    }
    return { ...node, kind };
  }
  const node = await (kind === "hardhat" ? startHardhatNode : startAnvil)({ chainId, blockTime });
  return { ...node, kind };
}

/**
 * A real node (anvil, or hardhat's with `node: "hardhat"`) for one of the testnet chains, on a
 * free port (never the ports of a running `pnpm start`), with the platform contracts deployed at
 * their deterministic addresses. `blockTime` undefined mines a block per transaction.
 */
export async function startTestChain(chainId = 97, options: TestChainOptions = {}): Promise<TestChain> {
  const info = testnetChain(chainId, options.env);
  const node = await startNode(options.node ?? "anvil", chainId, options.blockTime);
  try {
    await deployPlatformContracts(node.rpcUrl, chainId, info.tokens);
  } catch (err) {
    await node.stop();
    throw err;
  }
  const connection = connectTestChain(chainId, node.rpcUrl, options.env);
  return {
    ...connection,
    node,
    // No balance cache in the gateway: tests set a balance (hardhat_setBalance, no block) and read it at once.
    env: { [`RPC_URL_${chainId}`]: node.rpcUrl, [`BALANCE_CACHE_MS_${chainId}`]: "0", ...timingEnv(chainId, options.blockTime) },
    stop: async () => {
      connection.disconnect();
      await node.stop();
    },
  };
}

/**
 * A connection to a testnet chain's running node (one this process started, or a shared stack's),
 * its platform contracts deployed: the node's first account mints the devnet USDT.
 */
export function connectTestChain(chainId: number, rpcUrl: string, env: NodeJS.ProcessEnv = {}): ChainConnection {
  const provider = createProvider(rpcUrl, chainId, TEST_CALL_TIMEOUT_MS);
  provider.pollingInterval = 100;
  const usdt = testnetChain(chainId, env).tokens.find((t) => t.ticker === "USDT");
  if (!usdt) throw new Error(`chain ${chainId} lists no USDT: a test chain mints the devnet USDT (TOKENS_${chainId}=USDT:<decimals>)`);
  // Asked for at the first mint: a connection that never mints never calls the node.
  let token: Promise<Contract> | undefined;
  const minter = () => (token ??= provider.getSigner(0).then((signer) => contractAt("DevToken", usdt.address, signer)));
  // Concurrent sends from one account race for its nonce: one send at a time (receipts are still
  // awaited together, so concurrent mints share blocks).
  let sending: Promise<unknown> = Promise.resolve();
  const mint = (to: string, amount: bigint) => {
    const sent = sending.then(async () => (await minter()).getFunction("mint")(to, amount) as Promise<{ wait(): Promise<unknown> }>);
    sending = sent.catch(() => undefined);
    return sent;
  };
  return {
    chainId,
    rpcUrl,
    provider,
    usdt: { address: usdt.address, decimals: usdt.decimals },
    setBalance: async (address, wei) => {
      // Both nodes take hardhat's name for it.
      await provider.send("hardhat_setBalance", [address, "0x" + wei.toString(16)]);
    },
    mintUsdt: async (to, amount) => {
      await (await mint(to, amount)).wait();
    },
    disconnect: () => provider.destroy(),
  };
}

/** A chain the suite adds by configuration alone, as a platform team would. */
export interface ConfiguredTestChain {
  chainId: number;
  name: string;
  ticker: string;
  feeModel: "l1" | "op-stack";
}

/** An L2 of the suite's own: an OP-stack chain on anvil in optimism mode (node kind `anvil-optimism`). */
export const OP_STACK_TEST_CHAIN: ConfiguredTestChain = { chainId: 777010, name: "Acme Rollup", ticker: "AETH", feeModel: "op-stack" };

/**
 * The variables that add `chain` and serve it alone (ENV_CHAINS): its name, coin and fee model, 1
 * confirmation and 1 s blocks, the devnet's 6-decimal USDT with the classic benchmark measured on
 * BSC testnet's (so token sweeps carry fees), and fee ceilings well above a local node's prices.
 */
export function configuredChainEnv({ chainId, name, ticker, feeModel }: ConfiguredTestChain): Record<string, string> {
  const gwei = 1_000_000_000n;
  return {
    ENV_CHAINS: String(chainId),
    [`CHAIN_NAME_${chainId}`]: name,
    [`NATIVE_TICKER_${chainId}`]: ticker,
    [`FEE_MODEL_${chainId}`]: feeModel,
    [`CONFIRMATIONS_${chainId}`]: "1",
    [`BLOCK_TIME_MS_${chainId}`]: "1000",
    [`TOKENS_${chainId}`]: "USDT:6",
    [`TOKEN_${chainId}_USDT`]: devnetTokenAddress(chainId, "USDT", 6),
    [`CLASSIC_GAS_${chainId}_USDT`]: "50583,50583",
    [`MAX_FEE_PER_GAS_${chainId}`]: String(50n * gwei),
    [`MAX_PRIORITY_FEE_PER_GAS_${chainId}`]: String(2n * gwei),
  };
}

/** A testnet chain as the services will see it: the defaults, or the chains `env` configures. */
function testnetChain(chainId: number, env: NodeJS.ProcessEnv = {}) {
  const info = chainRegistry("testnet", devnetTokenAddress, env).find((c) => c.chainId === chainId);
  if (!info) throw new Error(`chain ${chainId} is not a testnet chain${env.ENV_CHAINS ? ` of ENV_CHAINS ${env.ENV_CHAINS}` : ""}`);
  return info;
}

/**
 * The services' timers in this node's terms: its block time (a node mining a block per transaction
 * counts as one a second), and the replacement and drop thresholds the suite's stories were written
 * for, 15 s and 60 s, in its blocks.
 */
function timingEnv(chainId: number, blockTime: number | undefined): Record<string, string> {
  const blockTimeMs = (blockTime ?? 1) * 1000;
  return {
    [`BLOCK_TIME_MS_${chainId}`]: String(blockTimeMs),
    [`REPLACE_AFTER_BLOCKS_${chainId}`]: String(Math.ceil(15_000 / blockTimeMs)),
    [`DROP_AFTER_BLOCKS_${chainId}`]: String(Math.ceil(60_000 / blockTimeMs)),
  };
}
