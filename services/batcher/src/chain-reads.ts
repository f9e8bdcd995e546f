import { freshHead, type ChainProvider } from "@sweep/rpc";
import { Interface, toQuantity } from "ethers";
import { accountKey, balanceKey, type ChainView } from "./batch-plan";
import type { AccountState } from "./pre-send-checks";

const erc20 = new Interface(["function balanceOf(address) view returns (uint256)"]);

export interface ChainReads {
  accounts: readonly string[];
  tokenBalances: ReadonlyArray<{ account: string; token: string }>;
}

export interface ChainSnapshot extends ChainView {
  blockNumber: number;
  blockGasLimit: bigint;
  /** the block's base fee (0 before London) */
  baseFee: bigint;
}

export interface ReadBatching {
  /** calls per JSON-RPC batch request (public nodes accept 50) */
  batchSize: number;
  /** batch requests under way at once */
  concurrency: number;
}

interface Read {
  method: string;
  params: unknown[];
  /** takes the node's answer into the snapshot; throws on one that makes no sense */
  take: (result: unknown) => void;
}

/**
 * Everything the checks need, read at one block (the head, never below `floor`: the highest block
 * the suite settled a transaction in, nor below a head this process saw) so that code, nonce and
 * balances agree with each other and show what was already mined: per account its code, nonce and native balance; per (account, token)
 * the token's balanceOf. The calls go as raw JSON-RPC batches: a claim reads a few hundred values,
 * and ethers' per-call handling cost several times what the node did. Every read goes to one
 * endpoint of the chain (the one preferred when the snapshot starts), so a second endpoint behind
 * the first cannot answer for a block it lacks; if that endpoint refuses service, the whole snapshot
 * is read again from the one preferred then (ChainProvider.withOneView). Throws when no node answers,
 * or one answers any call with an error: the caller rejects nothing then.
 */
export function readChainSnapshot(chainProvider: ChainProvider, reads: ChainReads | ((block: SnapshotBlock) => ChainReads), batching: ReadBatching, floor = 0): Promise<ChainSnapshot> {
  return chainProvider.withOneView((provider) => snapshotFrom(provider, reads, batching, floor));
}

/** The block a snapshot is read at, which may decide what is read (a claim reads what its gas budget admits). */
export type SnapshotBlock = Pick<ChainSnapshot, "blockNumber" | "blockGasLimit" | "baseFee">;

async function snapshotFrom(provider: ChainProvider, what: ChainReads | ((block: SnapshotBlock) => ChainReads), batching: ReadBatching, floor: number): Promise<ChainSnapshot> {
  const head = await freshHead(provider, floor);
  const block = await provider.getBlock(head);
  if (block === null) throw new Error(`the node returned no block ${head}`);
  const at: SnapshotBlock = { blockNumber: block.number, blockGasLimit: block.gasLimit, baseFee: block.baseFeePerGas ?? 0n };
  const reads = typeof what === "function" ? what(at) : what;
  const tag = toQuantity(block.number);
  const accounts = new Map<string, AccountState>();
  const tokenBalances = new Map<string, bigint>();
  const calls: Read[] = [];
  for (const account of reads.accounts) {
    const state: AccountState = { code: "0x", nonce: 0, nativeBalance: 0n };
    accounts.set(accountKey(account), state);
    calls.push(
      { method: "eth_getCode", params: [account, tag], take: (r) => (state.code = hexString(r)) },
      { method: "eth_getTransactionCount", params: [account, tag], take: (r) => (state.nonce = Number(BigInt(hexString(r)))) },
      { method: "eth_getBalance", params: [account, tag], take: (r) => (state.nativeBalance = BigInt(hexString(r))) },
    );
  }
  for (const { account, token } of reads.tokenBalances) {
    const data = erc20.encodeFunctionData("balanceOf", [account]);
    calls.push({
      method: "eth_call",
      params: [{ to: token, data }, tag],
      take: (r) => tokenBalances.set(balanceKey(account, token), erc20.decodeFunctionResult("balanceOf", hexString(r))[0] as bigint),
    });
  }
  const chunks: Read[][] = [];
  for (let i = 0; i < calls.length; i += batching.batchSize) chunks.push(calls.slice(i, i + batching.batchSize));
  await inParallel(
    batching.concurrency,
    chunks.map((chunk) => () => sendBatch(provider, chunk)),
  );
  return { ...at, accounts, tokenBalances };
}

async function sendBatch(provider: ChainProvider, chunk: readonly Read[]): Promise<void> {
  const answers = await provider._send(chunk.map((call, id) => ({ jsonrpc: "2.0", id, method: call.method, params: call.params })));
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  chunk.forEach((call, id) => {
    const answer = byId.get(id);
    if (!answer) throw new Error(`the node left ${call.method} unanswered`);
    if ("error" in answer) throw new Error(`${call.method} failed: ${JSON.stringify(answer.error)}`);
    call.take(answer.result);
  });
}

function hexString(value: unknown): string {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]*$/.test(value)) throw new Error(`the node answered ${JSON.stringify(value)} where a hex string belongs`);
  return value;
}

/** Runs the tasks with at most `limit` under way; rejects with the first failure. */
async function inParallel(limit: number, tasks: Array<() => Promise<void>>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
