import { startAnvil } from "@sweep/anvil";
import { createProvider } from "@sweep/rpc";
import type { ChainInfo } from "@sweep/chains";
import { deployPlatformContracts } from "@sweep/devnet";
import { Contract, Wallet, id, parseEther, parseUnits, type JsonRpcProvider, type Signer, type TransactionResponse } from "ethers";

/** The two transactions of the classic way; the native coin needs no top-up (0). */
export interface ClassicRun {
  topUp: bigint;
  transfer: bigint;
}

export interface AssetMeasurement {
  ticker: string;
  native: boolean;
  /** an address that held only the token: the top-up creates its account */
  new: ClassicRun;
  /** an address whose account existed: it had held the native coin before */
  existing: ClassicRun;
}

export function classicTotal(run: ClassicRun): bigint {
  return run.topUp + run.transfer;
}

/** The devnet token's functions used here (DevToken: an ERC-20 with a public mint). */
const TOKEN_ABI = ["function mint(address to, uint256 amount)", "function transfer(address to, uint256 amount) returns (bool)"];
/** The deposit measured, in whole tokens: its digits are part of the transfer's calldata, and so of its gas. */
const DEPOSIT_TOKENS = "125.5";

/**
 * The classic way of emptying a deposit address, without the service, on a fresh anvil of the
 * chain (automine) with the platform contracts deployed as `pnpm start` deploys them. For each
 * listed token: the gas wallet tops the address up with exactly the gas cost of its token transfer,
 * then the address sends its whole balance to a hot wallet that already holds the token. For the
 * native coin: the address's own plain transfer.
 */
export async function measureClassicGas(chain: Pick<ChainInfo, "chainId" | "nativeTicker" | "tokens">): Promise<AssetMeasurement[]> {
  const anvil = await startAnvil({ chainId: chain.chainId });
  const provider = createProvider(anvil.rpcUrl, chain.chainId);
  provider.pollingInterval = 20;
  try {
    await deployPlatformContracts(anvil.rpcUrl, chain.chainId, chain.tokens);
    // anvil's first default account, unlocked: anvil counts its nonces.
    const gasWallet = await provider.getSigner(0);
    const hotWallet = labelledWallet(provider, "hot wallet").address;
    const measurements: AssetMeasurement[] = [];
    for (const token of chain.tokens) {
      const measure = (deposit: Wallet) => classicTokenRun(provider, gasWallet, token.address, hotWallet, deposit, parseUnits(DEPOSIT_TOKENS, token.decimals));
      // The hot wallet's balance exists already, as after its first deposit.
      await confirm(new Contract(token.address, TOKEN_ABI, gasWallet).getFunction("mint")(hotWallet, 1n));
      const fresh = labelledWallet(provider, `${token.ticker} without an account`);
      const existing = labelledWallet(provider, `${token.ticker} with an account`);
      await confirm(gasWallet.sendTransaction({ to: existing.address, value: 1n }));
      measurements.push({ ticker: token.ticker, native: false, new: await measure(fresh), existing: await measure(existing) });
    }
    const native = await nativeTransferGas(gasWallet, hotWallet, labelledWallet(provider, `${chain.nativeTicker} deposit`));
    measurements.push({ ticker: chain.nativeTicker, native: true, new: native, existing: native });
    return measurements;
  } finally {
    provider.destroy();
    await anvil.stop();
  }
}

async function classicTokenRun(provider: JsonRpcProvider, gasWallet: Signer, tokenAddress: string, hotWallet: string, deposit: Wallet, amount: bigint): Promise<ClassicRun> {
  const token = new Contract(tokenAddress, TOKEN_ABI, gasWallet);
  await confirm(token.getFunction("mint")(deposit.address, amount));
  const data = token.interface.encodeFunctionData("transfer", [hotWallet, amount]);
  const gasLimit = await provider.estimateGas({ from: deposit.address, to: tokenAddress, data });
  const { maxFeePerGas, maxPriorityFeePerGas } = await provider.getFeeData();
  if (maxFeePerGas === null || maxPriorityFeePerGas === null) throw new Error("the chain reports no EIP-1559 fees");
  const topUp = await confirm(gasWallet.sendTransaction({ to: deposit.address, value: gasLimit * maxFeePerGas }));
  const transfer = await confirm(deposit.sendTransaction({ to: tokenAddress, data, gasLimit, maxFeePerGas, maxPriorityFeePerGas, nonce: 0 }));
  return { topUp, transfer };
}

async function nativeTransferGas(gasWallet: Signer, hotWallet: string, deposit: Wallet): Promise<ClassicRun> {
  await confirm(gasWallet.sendTransaction({ to: deposit.address, value: parseEther("1") }));
  return { topUp: 0n, transfer: await confirm(deposit.sendTransaction({ to: hotWallet, value: parseEther("0.5"), nonce: 0 })) };
}

/** The gas a transaction used; ethers' wait() throws on a revert. */
async function confirm(sent: Promise<TransactionResponse>): Promise<bigint> {
  const receipt = await (await sent).wait();
  if (!receipt) throw new Error("a benchmark transaction was dropped");
  return receipt.gasUsed;
}

/** Deterministic keys, so every run measures the same addresses. */
function labelledWallet(provider: JsonRpcProvider, label: string): Wallet {
  return new Wallet(id(`sweep.tariff-measure.${label}`), provider);
}
