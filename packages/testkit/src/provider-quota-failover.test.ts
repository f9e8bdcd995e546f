import { startAnvil, type AnvilNode } from "@sweep/anvil";
import { ChainClient, ChainProvider, RpcEndpoints } from "@sweep/rpc";
import { JsonRpcProvider, Network, Transaction, Wallet } from "ethers";
import { minedReceipt } from "./mined-receipt";
import { QUOTA_REPLIES, startRpcFaultProxy, type QuotaReply, type RpcFaultProxy } from "./rpc-fault-proxy";

// A chain's endpoints as the services use them (RpcEndpoints): the first, a fault proxy in front of
// a real anvil answering as a provider over its plan's limits; the second, another proxy in front
// of the same node, healthy. Every quota refusal must send the call to the second, rest the first,
// and never be read as the node's answer.

const CHAIN_ID = 97;
/** anvil's first development account */
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const backoff = { baseMs: 100, maxMs: 2_000 };
/** A rest long enough that a loaded machine (CI runs three jest workers beside stacks) cannot end it between two calls of one story. */
const steadyBackoff = { baseMs: 1_000, maxMs: 2_000 };

describe("a chain's endpoints through a provider's quota refusals", () => {
  let node: AnvilNode;
  let direct: JsonRpcProvider;
  let wallet: Wallet;
  let limited: RpcFaultProxy;
  let healthy: RpcFaultProxy;

  beforeAll(async () => {
    node = await startAnvil({ chainId: CHAIN_ID });
    direct = new JsonRpcProvider(node.rpcUrl, Network.from(CHAIN_ID), { staticNetwork: Network.from(CHAIN_ID), cacheTimeout: -1 });
    wallet = new Wallet(DEV_KEY, direct);
  });
  beforeEach(async () => {
    limited = await startRpcFaultProxy({ target: node.rpcUrl, backends: 2, seed: 1 });
    healthy = await startRpcFaultProxy({ target: node.rpcUrl, backends: 1, seed: 2 });
  });
  afterEach(async () => {
    await Promise.all([limited.close(), healthy.close()]);
  });
  afterAll(async () => {
    direct.destroy();
    await node.stop();
  });

  it.each(Object.keys(QUOTA_REPLIES) as QuotaReply[])("%s: the call and a batch go to the healthy endpoint, with the node's answers", async (reply) => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [limited.url, healthy.url], { timeoutMs: 2_000, backoff: steadyBackoff });
    const balance = await direct.getBalance(wallet.address);
    limited.quota(reply, { next: 2 });
    const read = { jsonrpc: "2.0" as const, id: 1, method: "eth_getBalance", params: [wallet.address, "latest"] };
    expect(await endpoints.send(read)).toEqual([{ jsonrpc: "2.0", id: 1, result: `0x${balance.toString(16)}` }]);
    // The refused endpoint rests: the batch goes to the healthy one at once. Then it is refused there by the second share.
    const batch = [
      { jsonrpc: "2.0" as const, id: 1, method: "eth_chainId", params: [] },
      { jsonrpc: "2.0" as const, id: 2, method: "eth_getBalance", params: [wallet.address, "latest"] },
    ];
    expect(await endpoints.send(batch)).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0x61" },
      { jsonrpc: "2.0", id: 2, result: `0x${balance.toString(16)}` },
    ]);
    // Back in rotation once its rest is over (the backoff, or the pause the provider asked for).
    while (endpoints.preferred() !== 0) await new Promise((r) => setTimeout(r, 20));
    expect(await endpoints.send(batch)).toHaveLength(2);
    expect(limited.counts().quotaReplies).toEqual({ [reply]: 2 });
    // Each request went to the refusing endpoint once at most, and on to the healthy one.
    expect([limited.counts().httpRequests, healthy.counts().httpRequests]).toEqual([2, 3]);
  });

  it("rests the refused endpoint for the provider's Retry-After, not its own shorter backoff", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [limited.url, healthy.url], { timeoutMs: 2_000, backoff });
    limited.quota("429-bare", { next: 1 });
    // The refusal came before the call was answered: its second of rest is over a second after that.
    await endpoints.send({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
    const answered = Date.now();
    await new Promise((r) => setTimeout(r, backoff.baseMs * 2));
    expect(endpoints.preferred()).toBe(1);
    await new Promise((r) => setTimeout(r, Math.max(0, answered + 1_000 - Date.now()) + 50));
    expect(endpoints.preferred()).toBe(0);
  });

  it("broadcasts through a quota refusal: the healthy endpoint's acceptance stands and the node mines it", async () => {
    const provider = new ChainProvider(new RpcEndpoints(CHAIN_ID, [limited.url, healthy.url], { timeoutMs: 2_000, backoff }));
    const client = new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider });
    limited.quota("32005-daily-count", { fraction: 1, methods: ["eth_sendRawTransaction"] });
    const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: Wallet.createRandom().address, value: 1n }));
    expect(await client.broadcast(signed)).toBe("accepted");
    expect(await minedReceipt(direct, Transaction.from(signed).hash!)).toMatchObject({ status: 1 });
    expect(limited.counts().quotaReplies).toEqual({ "32005-daily-count": 1 });
    // Both endpoints over their plans: the transaction was not heard, which is no refusal of it.
    healthy.quota("402-daily-credits", { fraction: 1 });
    const next = await wallet.signTransaction(await wallet.populateTransaction({ to: Wallet.createRandom().address, value: 1n }));
    expect(await client.broadcast(next)).toBe("unavailable");
    provider.destroy();
  });
});
