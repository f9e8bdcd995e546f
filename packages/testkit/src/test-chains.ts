import { startAnvil, type AnvilNode } from "@sweep/anvil";
import { chainRegistry, createProvider, devnetTokenAddress, type ChainProvider } from "@sweep/chain";
import { contractAt } from "@sweep/contracts";
import { deployPlatformContracts } from "@sweep/devnet";
import { parseEther } from "ethers";

export interface TestChain {
  chainId: number;
  rpcUrl: string;
  provider: ChainProvider;
  /** the devnet USDT of this chain */
  usdt: { address: string; decimals: number };
  anvil: AnvilNode;
  /** RPC_URL_<chain_id> for services pointed at this chain */
  env: Record<string, string>;
  setBalance(address: string, wei: bigint): Promise<void>;
  mintUsdt(to: string, amount: bigint): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real anvil for one of the testnet chains, on a free port (never the ports of a running
 * `pnpm start`), with the platform contracts deployed at their deterministic addresses.
 * `blockTime` undefined mines a block per transaction.
 */
export async function startTestChain(chainId = 97, options: { blockTime?: number } = {}): Promise<TestChain> {
  const info = chainRegistry("testnet", devnetTokenAddress, {}).find((c) => c.chainId === chainId);
  if (!info) throw new Error(`chain ${chainId} is not a testnet chain`);
  const anvil = await startAnvil({ chainId, blockTime: options.blockTime });
  try {
    await deployPlatformContracts(anvil.rpcUrl, chainId, info.tokens);
  } catch (err) {
    await anvil.stop();
    throw err;
  }
  const provider = createProvider(anvil.rpcUrl, chainId);
  provider.pollingInterval = 100;
  const usdt = info.tokens[0]!;
  const minter = await provider.getSigner(0);
  const token = contractAt("DevToken", usdt.address, minter);
  // Concurrent sends from one account race for its nonce: one send at a time (receipts are still
  // awaited together, so concurrent mints share blocks).
  let sending: Promise<unknown> = Promise.resolve();
  const mint = (to: string, amount: bigint) => {
    const sent = sending.then(() => token.getFunction("mint")(to, amount) as Promise<{ wait(): Promise<unknown> }>);
    sending = sent.catch(() => undefined);
    return sent;
  };
  return {
    chainId,
    rpcUrl: anvil.rpcUrl,
    provider,
    usdt: { address: usdt.address, decimals: usdt.decimals },
    anvil,
    env: { [`RPC_URL_${chainId}`]: anvil.rpcUrl },
    setBalance: async (address, wei) => {
      await provider.send("anvil_setBalance", [address, "0x" + wei.toString(16)]);
    },
    mintUsdt: async (to, amount) => {
      await (await mint(to, amount)).wait();
    },
    stop: async () => {
      provider.destroy();
      await anvil.stop();
    },
  };
}

export const ONE_ETHER = parseEther("1");
