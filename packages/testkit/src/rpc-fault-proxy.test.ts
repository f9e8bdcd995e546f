import { startAnvil, type AnvilNode } from "@sweep/anvil";
import { JsonRpcProvider, Network, Transaction, Wallet, getAddress, type BaseWallet, type TransactionReceipt } from "ethers";
import { minedReceipt } from "./mined-receipt";
import { QUOTA_REPLIES, startRpcFaultProxy, type QuotaReply, type RpcFaultProxy, type RpcFaultProxyOptions } from "./rpc-fault-proxy";

// The fault proxy in front of a real anvil (a block per transaction), read through raw JSON-RPC
// and through ethers as the services read it.

const CHAIN_ID = 97;
/** anvil's first development account */
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

type Answer = { jsonrpc: "2.0"; id: number; result?: unknown; error?: { code: number; message: string } };

async function post(url: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: "2.0", id, method, params });
const rpc = async (url: string, method: string, params: unknown[] = []) => (await post(url, call(method, params))).body as Answer;

/** A provider as the services build one: fixed network, one call per HTTP request, no cache. */
const providerOf = (url: string, batchMaxCount = 1) => new JsonRpcProvider(url, Network.from(CHAIN_ID), { staticNetwork: Network.from(CHAIN_ID), batchMaxCount, cacheTimeout: -1 });

describe("the JSON-RPC fault proxy", () => {
  let node: AnvilNode;
  let direct: JsonRpcProvider;
  let wallet: Wallet;
  const proxies: RpcFaultProxy[] = [];
  const providers: JsonRpcProvider[] = [];
  const proxy = async (options: Partial<RpcFaultProxyOptions> = {}) => {
    const started = await startRpcFaultProxy({ target: node.rpcUrl, seed: 1, ...options });
    proxies.push(started);
    return started;
  };
  const through = (p: RpcFaultProxy, batchMaxCount = 1) => {
    const provider = providerOf(p.url, batchMaxCount);
    providers.push(provider);
    return provider;
  };
  /** A transfer mined in a block of its own (automine), with its receipt. */
  const transfer = async (): Promise<TransactionReceipt> => (await (await wallet.sendTransaction({ to: Wallet.createRandom().address, value: 1n })).wait())!;

  beforeAll(async () => {
    node = await startAnvil({ chainId: CHAIN_ID });
    direct = providerOf(node.rpcUrl);
    wallet = new Wallet(DEV_KEY, direct);
  });

  afterEach(async () => {
    for (const provider of providers.splice(0)) provider.destroy();
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });

  afterAll(async () => {
    direct.destroy();
    await node.stop();
  });

  it("passes calls and batches through to the node, one HTTP request to one backend in turn, and counts the calls per method", async () => {
    const p = await proxy({ backends: 3 });
    expect(await rpc(p.url, "eth_chainId")).toEqual({ jsonrpc: "2.0", id: 1, result: "0x61" });
    const batch = await post(p.url, [call("eth_blockNumber", [], 1), call("eth_chainId", [], 2), call("eth_blockNumber", [], 3)]);
    expect((batch.body as Answer[]).map((a) => a.id)).toEqual([1, 2, 3]);
    await rpc(p.url, "eth_gasPrice");
    await rpc(p.url, "eth_gasPrice");
    expect(p.counts()).toMatchObject({
      httpRequests: 4,
      byBackend: [2, 1, 1],
      byMethod: { eth_chainId: 2, eth_blockNumber: 2, eth_gasPrice: 2 },
      faults: { http429: 0, http5xx: 0, timeouts: 0, lagged: 0, dropped: 0, reencoded: 0, reordered: 0 },
    });
  });

  it("sends traffic to a loopback node only", async () => {
    await expect(startRpcFaultProxy({ target: "https://bsc-testnet.example.org/v3/key" })).rejects.toThrow("loopback node only, not bsc-testnet.example.org");
  });

  it("lags a backend by N blocks: head, state, blocks, receipts and transactions as of head − N; broadcasts pass", async () => {
    const p = await proxy({ backends: 1 });
    const provider = through(p);
    const early = await transfer();
    for (let i = 0; i < 4; i++) await transfer();
    const late = await transfer();
    const head = await direct.getBlockNumber();
    expect(late.blockNumber).toBe(head);
    const view = head - 3;
    const nonceAtView = await direct.getTransactionCount(wallet.address, view);
    p.lag(3);

    expect(await provider.getBlockNumber()).toBe(view);
    expect((await provider.getBlock("latest"))!.number).toBe(view);
    expect((await provider.getBlock("pending"))!.number).toBe(view);
    expect(await provider.getBlock(head)).toBeNull();
    expect((await provider.getBlock(view))!.hash).toBe((await direct.getBlock(view))!.hash);
    expect(await provider.getTransactionCount(wallet.address, "latest")).toBe(nonceAtView);
    expect(await provider.getTransactionCount(wallet.address, "pending")).toBe(nonceAtView);
    expect(await provider.getTransactionCount(wallet.address)).toBe(nonceAtView);
    expect(await provider.getBalance(wallet.address)).toBe(await direct.getBalance(wallet.address, view));
    // eth_call and eth_estimateGas run on the lagging head's state: the balance read by a call is the one at head − N.
    expect(await provider.call({ to: wallet.address, data: "0x" })).toBe("0x");
    expect(await provider.estimateGas({ from: wallet.address, to: wallet.address, value: 1n })).toBe(21_000n);
    // geth's answers for a block it has not seen yet.
    expect(await rpc(p.url, "eth_getBalance", [wallet.address, `0x${head.toString(16)}`])).toMatchObject({ error: { code: -32000, message: "header not found" } });
    expect(await rpc(p.url, "eth_getCode", [wallet.address, `0x${head.toString(16)}`])).toMatchObject({ error: { message: "header not found" } });
    expect(await rpc(p.url, "eth_call", [{ to: wallet.address }, `0x${head.toString(16)}`])).toMatchObject({ error: { message: "header not found" } });

    // Mined above head − N: unknown to the lagging backend; mined at or below it: as the node has it.
    expect(await provider.getTransactionReceipt(late.hash)).toBeNull();
    expect(await rpc(p.url, "eth_getTransactionByHash", [late.hash])).toMatchObject({ result: null });
    expect((await provider.getTransactionReceipt(early.hash))!.blockNumber).toBe(early.blockNumber);
    expect(await provider.getBlock(late.blockHash)).toBeNull();

    // A broadcast reaches the node at the head and is mined there.
    const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: wallet.address, value: 0n }));
    const hash = await provider.send("eth_sendRawTransaction", [signed]);
    await minedReceipt(direct, hash);
    expect(await provider.getTransactionReceipt(hash)).toBeNull();
    expect(await direct.getTransactionReceipt(hash)).not.toBeNull();

    p.lag(0);
    expect(await provider.getBlockNumber()).toBe(await direct.getBlockNumber());
    expect((await provider.getTransactionReceipt(hash))!.hash).toBe(hash);
    expect(p.counts().faults.lagged).toBeGreaterThan(15);
  });

  it("lags one backend while the others answer at the head: reads through the endpoint disagree as on a load-balanced provider", async () => {
    const p = await proxy({ backends: 2 });
    await transfer();
    await transfer();
    const head = await direct.getBlockNumber();
    p.lag(2, { backend: 1 });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(Number((await rpc(p.url, "eth_blockNumber")).result));
    expect(seen).toEqual([head, head - 2, head, head - 2]);
    await p.clear("lag", { backend: 1 });
    expect(Number((await rpc(p.url, "eth_blockNumber")).result)).toBe(head);
    expect(Number((await rpc(p.url, "eth_blockNumber")).result)).toBe(head);
  });

  it("answers 429 with a provider's JSON-RPC body for the next K requests, and 5xx pages on one backend only", async () => {
    const p = await proxy({ backends: 2 });
    p.httpErrors(429, { next: 2 });
    const limited = await post(p.url, call("eth_blockNumber", [], 7));
    expect(limited).toMatchObject({ status: 429, body: { jsonrpc: "2.0", id: 7, error: { code: -32005 } } });
    expect((await post(p.url, call("eth_blockNumber"))).status).toBe(429);
    expect((await post(p.url, call("eth_blockNumber"))).status).toBe(200);

    p.httpErrors(503, { fraction: 1 }, { backend: 0 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(p.url, call("eth_blockNumber"))).status);
    // Request 3 went to backend 0 (round-robin carried on from the three above).
    expect(statuses).toEqual([200, 503, 200, 503]);
    const page = await post(p.url, call("eth_blockNumber"));
    expect(page.status).toBe(200);
    const failed = await post(p.url, call("eth_blockNumber"));
    expect(failed).toMatchObject({ status: 503, body: undefined });
    expect(failed.text).toContain("503 Service Unavailable");
    // ethers gives up on the 5xx with a server error; a 429 it retries by itself (FetchRequest's throttle).
    await expect(through(p).getBlockNumber().then(() => through(p).getBlockNumber())).rejects.toThrow();
    await p.clear("http");
    p.httpErrors(429, { next: 2 });
    expect(await through(p).getBlockNumber()).toBe(await direct.getBlockNumber());
    expect(p.counts().faults).toMatchObject({ http429: 4, http5xx: 4 });
  });

  it("holds requests unanswered until the client gives up, only those of the methods named, and releases them on close", async () => {
    const p = await proxy({ backends: 1 });
    p.timeouts({ next: 1, methods: ["eth_getBalance"] });
    expect((await rpc(p.url, "eth_blockNumber")).result).toBeDefined();
    const started = Date.now();
    await expect(post(p.url, call("eth_getBalance", [wallet.address, "latest"]), AbortSignal.timeout(400))).rejects.toThrow(/aborted/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect((await rpc(p.url, "eth_getBalance", [wallet.address, "latest"])).result).toBeDefined();

    // A broadcast that reaches the node but whose answer never comes back.
    p.timeouts({ next: 1, methods: ["eth_sendRawTransaction"], reachesNode: true });
    const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: wallet.address, value: 0n }));
    await expect(post(p.url, call("eth_sendRawTransaction", [signed]), AbortSignal.timeout(1_000))).rejects.toThrow(/aborted/i);
    expect(await minedReceipt(direct, Transaction.from(signed).hash!)).toMatchObject({ status: 1 });

    p.timeouts({ fraction: 1 });
    const pending = post(p.url, call("eth_blockNumber"));
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    await expect(pending).rejects.toThrow();
    expect(p.counts().faults.timeouts).toBe(3);
  });

  it.each([
    ["-32601", -32601, "the method eth_simulateV1 does not exist/is not available"],
    ["-32600", -32600, "Unsupported method: eth_simulateV1"],
    ["-32004", -32004, "Method eth_simulateV1 is not supported"],
  ] as const)("drops a method with %s as a provider that lacks it, until cleared", async (answer, code, message) => {
    const p = await proxy();
    const simulate = () => rpc(p.url, "eth_simulateV1", [{ blockStateCalls: [{ calls: [{ from: wallet.address, to: wallet.address }] }] }, "latest"]);
    p.dropMethod("eth_simulateV1", answer);
    expect(await simulate()).toEqual({ jsonrpc: "2.0", id: 1, error: { code, message } });
    expect((await rpc(p.url, "eth_blockNumber")).result).toBeDefined();
    await expect(through(p).send("eth_simulateV1", [{ blockStateCalls: [] }, "latest"])).rejects.toThrow(message);
    await p.clear("drop");
    expect((await simulate()).result).toEqual([expect.objectContaining({ calls: [expect.objectContaining({ status: "0x1" })] })]);
    expect(p.counts().faults.dropped).toBe(2);
  });

  it("changes answers' encodings as other nodes write them, which ethers reads as the same answers", async () => {
    const receipt = await transfer();
    const p = await proxy({ backends: 1 });
    p.encodings({ upperCaseQuantities: true, checksumAddresses: true, omitOptionalFields: true });

    const raw = async (url: string, method: string, params: unknown[]) => (await rpc(url, method, params)).result as Record<string, unknown>;
    const [plainReceipt, changedReceipt] = await Promise.all([raw(node.rpcUrl, "eth_getTransactionReceipt", [receipt.hash]), raw(p.url, "eth_getTransactionReceipt", [receipt.hash])]);
    expect(changedReceipt.effectiveGasPrice).toBe("0x" + String(plainReceipt.effectiveGasPrice).slice(2).toUpperCase());
    expect(changedReceipt.from).toBe(getAddress(String(plainReceipt.from)));
    expect(changedReceipt.from).not.toBe(plainReceipt.from);
    expect(changedReceipt.transactionHash).toBe(plainReceipt.transactionHash);
    for (const field of ["blobGasPrice", "blockTimestamp"]) {
      expect(plainReceipt).toHaveProperty(field);
      expect(changedReceipt).not.toHaveProperty(field);
    }
    const changedTx = await raw(p.url, "eth_getTransactionByHash", [receipt.hash]);
    expect(changedTx).not.toHaveProperty("v");
    expect(changedTx.yParity).toBeDefined();
    const [plainBlock, changedBlock] = await Promise.all([raw(node.rpcUrl, "eth_getBlockByNumber", ["0x1", false]), raw(p.url, "eth_getBlockByNumber", ["0x1", false])]);
    expect(plainBlock).toHaveProperty("totalDifficulty");
    expect(changedBlock).not.toHaveProperty("totalDifficulty");
    // A quantity with hex letters in it, and a hash, which stays as it was.
    expect(plainBlock.gasLimit).toBe("0x1c9c380");
    expect(changedBlock.gasLimit).toBe("0x1C9C380");
    expect(changedBlock.hash).toBe(plainBlock.hash);
    const number = (await rpc(p.url, "eth_blockNumber")).result as string;
    expect(number).toBe(number.toUpperCase().replace("0X", "0x"));

    const provider = through(p);
    // anvil's blobGasPrice of a transaction that carries no blob is the one difference: geth writes none.
    expect((await provider.getTransactionReceipt(receipt.hash))!.toJSON()).toEqual({ ...(await direct.getTransactionReceipt(receipt.hash))!.toJSON(), blobGasPrice: null });
    expect((await provider.getTransaction(receipt.hash))!.toJSON()).toEqual((await direct.getTransaction(receipt.hash))!.toJSON());
    expect((await provider.getBlock(receipt.blockNumber, true))!.toJSON()).toEqual((await direct.getBlock(receipt.blockNumber, true))!.toJSON());
    expect(await provider.getBalance(wallet.address)).toBe(await direct.getBalance(wallet.address));
    expect(p.counts().faults.reencoded).toBe(8);
  });

  it("answers a batch in another order, which JSON-RPC allows and ethers matches by id", async () => {
    const p = await proxy({ backends: 1 });
    p.encodings({ reorderBatches: true });
    const ids = [1, 2, 3, 4];
    const batch = await post(p.url, ids.map((id) => call(id % 2 ? "eth_chainId" : "eth_blockNumber", [], id)));
    const answers = batch.body as Answer[];
    expect(answers.map((a) => a.id)).not.toEqual(ids);
    expect([...answers.map((a) => a.id)].sort()).toEqual(ids);
    for (const a of answers) if (a.id % 2) expect(a.result).toBe("0x61");

    const batching = through(p, 10);
    const [chainId, head, balance] = await Promise.all([batching.send("eth_chainId", []), batching.getBlockNumber(), batching.getBalance(wallet.address)]);
    expect([chainId, head, balance]).toEqual(["0x61", await direct.getBlockNumber(), await direct.getBalance(wallet.address)]);
    expect(p.counts().faults.reordered).toBeGreaterThanOrEqual(1);
  });

  it("answers a batch's members from different backends, a lagging one among them, in any order: a fresh head beside a null receipt", async () => {
    const p = await proxy({ backends: 3 });
    const mined = await transfer();
    for (let i = 0; i < 2; i++) await transfer();
    const head = await direct.getBlockNumber();
    p.lag(3, { backend: 1 });
    p.splitBatches();
    const byId = (answers: unknown) => new Map((answers as Answer[]).map((a) => [a.id, a]));
    const orders: number[][] = [];
    // A request to backend 0: member 0 from backend 0 (at the head), member 1 from backend 1 (3 blocks behind).
    const members = [call("eth_blockNumber", [], 1), call("eth_getTransactionReceipt", [mined.hash], 2), call("eth_blockNumber", [], 3), call("eth_chainId", [], 4)];
    const first = await post(p.url, members);
    orders.push((first.body as Answer[]).map((a) => a.id));
    const answers = byId(first.body);
    expect(Number(answers.get(1)!.result)).toBe(head);
    expect(answers.get(2)!.result).toBeNull();
    expect(Number(answers.get(3)!.result)).toBe(head);
    expect(answers.get(4)!.result).toBe("0x61");
    // Without the split, the same batch to one backend at the head has the receipt.
    await p.clear("split");
    await p.clear("lag");
    expect((byId((await post(p.url, members)).body).get(2)!.result as { transactionHash: string }).transactionHash).toBe(mined.hash);
    p.lag(3, { backend: 1 });
    p.splitBatches();
    for (let i = 0; i < 5; i++) orders.push(((await post(p.url, members)).body as Answer[]).map((a) => a.id));
    expect(orders.some((order) => order.join() !== "1,2,3,4")).toBe(true);
    expect(p.counts().faults).toMatchObject({ split: 6 });
    // A single call is no batch: one backend answers it.
    expect((await rpc(p.url, "eth_chainId")).result).toBe("0x61");
    expect(p.counts().faults.split).toBe(6);
  });

  it("withholds the transactions of one sender: receipts and transactions by hash answered null until cleared", async () => {
    const p = await proxy({ backends: 2 });
    const other = Wallet.createRandom().connect(direct);
    await direct.send("anvil_setBalance", [other.address, "0xde0b6b3a7640000"]);
    const ours = await transfer();
    const theirs = (await (await other.sendTransaction({ to: wallet.address, value: 1n })).wait())!;
    p.withholdTransactions(wallet.address);
    for (let i = 0; i < 2; i++) {
      expect((await rpc(p.url, "eth_getTransactionReceipt", [ours.hash])).result).toBeNull();
      expect((await rpc(p.url, "eth_getTransactionByHash", [ours.hash])).result).toBeNull();
      expect((await rpc(p.url, "eth_getTransactionReceipt", [theirs.hash])).result).toMatchObject({ transactionHash: theirs.hash });
    }
    // The chain still counts them.
    expect(Number((await rpc(p.url, "eth_getTransactionCount", [wallet.address, "latest"])).result)).toBe(await direct.getTransactionCount(wallet.address));
    expect(p.counts().faults.withheld).toBe(4);
    await p.clear("withhold");
    expect((await rpc(p.url, "eth_getTransactionReceipt", [ours.hash])).result).toMatchObject({ transactionHash: ours.hash });
  });

  it("refuses connections while down, then answers again at the same address", async () => {
    const p = await proxy();
    await p.refuseConnections();
    await expect(post(p.url, call("eth_blockNumber"))).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
    await p.clear("refuse");
    expect((await rpc(p.url, "eth_blockNumber")).result).toBeDefined();
  });

  it("replays its random choices from the seed: routing, and which requests a fraction hits", async () => {
    const run = async (seed: number) => {
      const p = await proxy({ seed, backends: 3, routing: "random" });
      p.httpErrors(502, { fraction: 0.5 }, { backend: 2 });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await post(p.url, call("eth_chainId"))).status);
      return { statuses, byBackend: p.counts().byBackend };
    };
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    expect(first.statuses).toContain(502);
    expect(first.statuses).toContain(200);
    expect(first.byBackend.every((n) => n > 0)).toBe(true);
    expect(await run(43)).not.toEqual(first);
  });

  it.each(Object.keys(QUOTA_REPLIES) as QuotaReply[])("answers %s as the provider refusing for its plan, without asking the node", async (reply) => {
    const p = await proxy({ backends: 2 });
    const shape = QUOTA_REPLIES[reply];
    p.quota(reply, { next: 2 });
    const single = await fetch(p.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call("eth_chainId", [], 7)) });
    expect(single.status).toBe(shape.status);
    expect(single.headers.get("retry-after")).toBe(shape.retryAfter ?? null);
    const text = await single.text();
    if (shape.error) expect(JSON.parse(text)).toEqual({ jsonrpc: "2.0", id: 7, error: shape.error });
    else expect(text).toBe("");
    const batch = await post(p.url, [call("eth_chainId", [], 1), call("eth_blockNumber", [], 2), call("eth_chainId", [], 3)]);
    expect(batch.status).toBe(shape.status);
    if (shape.members === "every") expect(batch.body).toEqual([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, error: shape.error })));
    if (shape.members === "one") expect(batch.body).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x61" }, { jsonrpc: "2.0", id: 2, result: expect.stringMatching(/^0x/) }, { jsonrpc: "2.0", id: 3, error: shape.error }]);
    if (shape.members === "request") expect(batch.text).toBe(shape.error ? JSON.stringify({ jsonrpc: "2.0", id: 1, error: shape.error }) : "");
    // The next request is the node's again.
    expect(await rpc(p.url, "eth_chainId")).toEqual({ jsonrpc: "2.0", id: 1, result: "0x61" });
    const counts = p.counts();
    expect(counts.faults.quota).toBe(2);
    expect(counts.quotaReplies).toEqual({ [reply]: 2 });
  });

  it("refuses for quota only the methods named, per backend, until cleared; a transaction refused never reaches the node", async () => {
    const p = await proxy({ backends: 2 });
    p.quota("32005-daily-count", { fraction: 1, methods: ["eth_sendRawTransaction"] }, { backend: 1 });
    const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: wallet.address, value: 0n }));
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    expect((await rpc(p.url, "eth_blockNumber")).result).toBeDefined();
    expect(await rpc(p.url, "eth_sendRawTransaction", [signed])).toMatchObject({ error: { code: -32005 } });
    expect(await direct.getTransactionCount(wallet.address, "pending")).toBe(nonce);
    await p.clear("quota");
    expect((await rpc(p.url, "eth_sendRawTransaction", [signed])).result).toBe(Transaction.from(signed).hash);
    await minedReceipt(direct, Transaction.from(signed).hash!);
    expect(p.counts().quotaReplies).toEqual({ "32005-daily-count": 1 });
  });

  it("refuses a transaction over its fee cap as geth's --rpc.txfeecap does, and one carrying a reserved authority; the others reach the node", async () => {
    const p = await proxy({ backends: 2 });
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    const sign = (n: number, gasLimit: bigint, maxFeePerGas: bigint, authorizationList: Awaited<ReturnType<Wallet["authorize"]>>[] = []) =>
      wallet.signTransaction({ type: authorizationList.length > 0 ? 4 : 2, chainId: CHAIN_ID, nonce: n, to: wallet.address, value: 0n, gasLimit, maxFeePerGas, maxPriorityFeePerGas: 1n, ...(authorizationList.length > 0 ? { authorizationList } : {}) });

    // 100,000 gas at 10 gwei may cost 0.001 ether: over a cap of 0.0009, within one of 0.001.
    p.feeCap(900_000_000_000_000n);
    const over = await sign(nonce, 100_000n, 10_000_000_000n);
    expect((await rpc(p.url, "eth_sendRawTransaction", [over])).error).toEqual({ code: -32000, message: "tx fee (0.00 ether) exceeds the configured cap (0.00 ether)" });
    expect(await direct.getTransaction(Transaction.from(over).hash!)).toBeNull();
    p.feeCap(2_000_000_000_000_000_000n);
    const big = await sign(nonce, 300_000n, 10_000_000_000_000n);
    expect((await rpc(p.url, "eth_sendRawTransaction", [big])).error?.message).toBe("tx fee (3.00 ether) exceeds the configured cap (2.00 ether)");
    p.feeCap(1_000_000_000_000_000n);
    const within = await sign(nonce, 100_000n, 10_000_000_000n);
    expect((await rpc(p.url, "eth_sendRawTransaction", [within])).result).toBe(Transaction.from(within).hash);
    await minedReceipt(direct, Transaction.from(within).hash!);

    // An account with a transaction of its own in the pool: its pending count is one above the chain's, and its authorization is refused.
    const reserved = Wallet.createRandom();
    const free = Wallet.createRandom();
    p.reserveAuthorities([reserved.address.toUpperCase().replace("0X", "0x")]);
    expect(Number((await rpc(p.url, "eth_getTransactionCount", [reserved.address, "pending"])).result)).toBe(1);
    expect(Number((await rpc(p.url, "eth_getTransactionCount", [reserved.address, "latest"])).result)).toBe(0);
    expect(Number((await rpc(p.url, "eth_getTransactionCount", [free.address, "pending"])).result)).toBe(0);
    const authorize = (owner: BaseWallet) => owner.authorize({ address: wallet.address, nonce: 0n, chainId: BigInt(CHAIN_ID) });
    const carrying = await sign(nonce + 1, 100_000n, 10_000_000_000n, [await authorize(free), await authorize(reserved)]);
    expect((await rpc(p.url, "eth_sendRawTransaction", [carrying])).error).toEqual({ code: -32000, message: "authority already reserved" });
    const without = await sign(nonce + 1, 100_000n, 10_000_000_000n, [await authorize(free)]);
    expect((await rpc(p.url, "eth_sendRawTransaction", [without])).result).toBe(Transaction.from(without).hash);
    await minedReceipt(direct, Transaction.from(without).hash!);
    expect(p.counts().faults.poolRefused).toBe(3);

    await p.clear("pool");
    expect(Number((await rpc(p.url, "eth_getTransactionCount", [reserved.address, "pending"])).result)).toBe(0);
    const later = await sign(nonce + 2, 300_000n, 10_000_000_000_000n, [await authorize(reserved)]);
    expect((await rpc(p.url, "eth_sendRawTransaction", [later])).result).toBe(Transaction.from(later).hash);
    await minedReceipt(direct, Transaction.from(later).hash!);
  });
});
