import { FetchRequest, Interface, JsonRpcProvider, Network, type Provider } from "ethers";
import { accountKey, balanceKey, type ChainView } from "./batch-plan";
import type { AccountState } from "./pre-send-checks";

/**
 * A provider for the checks: a claim reads a few values per sweep, so requests go in JSON-RPC
 * batches (50 at most, which public nodes accept), and a node that hangs fails the reads after
 * `timeoutMs` instead of holding the hot wallet's round for ethers' default five minutes. Like
 * every provider of the suite it trusts the configured chain id and never answers from ethers'
 * request cache.
 */
export function readProvider(rpcUrl: string, chainId: number, timeoutMs = 10_000): JsonRpcProvider {
  const network = Network.from(chainId);
  const request = new FetchRequest(rpcUrl);
  request.timeout = timeoutMs;
  return new JsonRpcProvider(request, network, { staticNetwork: network, batchMaxCount: 50, batchStallTime: 2, cacheTimeout: -1 });
}

const erc20 = new Interface(["function balanceOf(address) view returns (uint256)"]);

export interface ChainReads {
  accounts: readonly string[];
  tokenBalances: ReadonlyArray<{ account: string; token: string }>;
}

export interface ChainSnapshot extends ChainView {
  blockNumber: number;
  blockGasLimit: bigint;
}

/**
 * Everything the checks need, read at one block (the latest) so that code, nonce and balances
 * agree with each other: per account its code, nonce and native balance; per (account, token)
 * the token's balanceOf. Throws when the node does not answer: the caller rejects nothing then.
 */
export async function readChainSnapshot(provider: Provider, reads: ChainReads, concurrency: number): Promise<ChainSnapshot> {
  const block = await provider.getBlock("latest");
  if (block === null) throw new Error("the node returned no latest block");
  const blockTag = block.number;
  const accounts = new Map<string, AccountState>();
  const tokenBalances = new Map<string, bigint>();
  await inParallel(concurrency, [
    ...reads.accounts.map((account) => async () => {
      const [code, nonce, nativeBalance] = await Promise.all([
        provider.getCode(account, blockTag),
        provider.getTransactionCount(account, blockTag),
        provider.getBalance(account, blockTag),
      ]);
      accounts.set(accountKey(account), { code, nonce, nativeBalance });
    }),
    ...reads.tokenBalances.map(({ account, token }) => async () => {
      const answer = await provider.call({ to: token, data: erc20.encodeFunctionData("balanceOf", [account]), blockTag });
      tokenBalances.set(balanceKey(account, token), erc20.decodeFunctionResult("balanceOf", answer)[0] as bigint);
    }),
  ]);
  return { blockNumber: blockTag, blockGasLimit: block.gasLimit, accounts, tokenBalances };
}

/** Runs the tasks with at most `limit` under way; rejects with the first failure. */
async function inParallel(limit: number, tasks: Array<() => Promise<void>>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
