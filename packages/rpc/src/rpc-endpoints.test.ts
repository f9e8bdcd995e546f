import http from "node:http";
import type { AddressInfo } from "node:net";
import { registry } from "@sweep/metrics";
import { ChainCallError } from "./node-errors";
import { ChainClient, freshHead } from "./chain-client";
import { ChainProvider } from "./chain-provider";
import { RpcEndpoints, RpcTransportError, retryAfterMs } from "./rpc-endpoints";

const CHAIN_ID = 97;

/** A local HTTP endpoint whose answer to each request the test decides; it records what it was sent. */
interface FakeEndpoint {
  url: string;
  received: Array<{ method: string }>;
  answer: (body: unknown, res: http.ServerResponse) => void;
  close(): Promise<void>;
}

const rpcResult = (result: unknown) => (body: unknown, res: http.ServerResponse) => {
  const answer = (call: { id: number }) => ({ jsonrpc: "2.0", id: call.id, result });
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body as { id: number })));
};
const rpcError = (code: number, message: string) => (body: unknown, res: http.ServerResponse) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ jsonrpc: "2.0", id: (body as { id: number }).id, error: { code, message } }));
};
const status = (code: number, headers: Record<string, string> = {}) => (_body: unknown, res: http.ServerResponse) => {
  res.writeHead(code, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32005, message: "limited" } }));
};
const hang = () => undefined;

async function fakeEndpoint(path = "/"): Promise<FakeEndpoint> {
  const received: Array<{ method: string }> = [];
  const sockets = new Set<import("node:net").Socket>();
  const endpoint: FakeEndpoint = {
    url: "",
    received,
    answer: rpcResult("0x1"),
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(text) as { method: string } | Array<{ method: string }>;
      received.push(...(Array.isArray(body) ? body : [body]));
      endpoint.answer(body, res);
    });
  });
  server.on("connection", (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return endpoint;
}

const call = (method: string, id = 1) => ({ jsonrpc: "2.0" as const, id, method, params: [] });
const backoff = { baseMs: 200, maxMs: 1_000 };

describe("a chain's RPC endpoints", () => {
  let a: FakeEndpoint;
  let b: FakeEndpoint;
  beforeEach(async () => {
    a = await fakeEndpoint("/v3/secret-key-a");
    b = await fakeEndpoint("/secret-key-b");
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("sends to the first endpoint while it answers, a node's error answer included", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    expect(await endpoints.send(call("eth_blockNumber"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x1" }]);
    a.answer = rpcError(-32000, "execution reverted");
    expect(await endpoints.send(call("eth_call"))).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "execution reverted" } }]);
    expect(b.received).toEqual([]);
  });

  it.each([
    ["a 5xx", status(503)],
    ["a 429", status(429)],
    ["an answer that is not JSON-RPC", (_body: unknown, res: http.ServerResponse) => res.end("<html>bad gateway</html>")],
    ["a refusal of the key (401)", (_body: unknown, res: http.ServerResponse) => res.writeHead(401).end("unauthorized")],
    ["no answer in time", hang],
  ])("fails over on %s, and keeps the failed endpoint out of rotation for its backoff", async (_name, failure) => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 300, backoff });
    a.answer = failure;
    b.answer = rpcResult("0x2");
    expect(await endpoints.send(call("eth_blockNumber"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x2" }]);
    a.received.length = 0;
    expect(await endpoints.send(call("eth_blockNumber"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x2" }]);
    expect(a.received).toEqual([]);
  });

  const reply =
    (code: number, body: unknown, headers: Record<string, string> = {}) =>
    (_body: unknown, res: http.ServerResponse) => {
      res.writeHead(code, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
  const refusal = (code: number, message: string, data?: unknown) => ({ jsonrpc: "2.0", id: 1, error: data === undefined ? { code, message } : { code, message, data } });
  it.each([
    ["HTTP 402 with Infura's daily credit body", reply(402, { jsonrpc: "2.0", id: 1, error: { code: 402, event: -33000, message: "Payment Required", details: "You have reached your daily credit limit." } }), "quota"],
    ["HTTP 403 with a JSON-RPC body", reply(403, refusal(-32000, "Forbidden")), "quota"],
    ["HTTP 403 with a page", (_body: unknown, res: http.ServerResponse) => res.writeHead(403).end("forbidden"), "quota"],
    ["HTTP 429 without a body", (_body: unknown, res: http.ServerResponse) => res.writeHead(429).end(), "http_429"],
    ["-32005 limit exceeded in an HTTP 200", reply(200, refusal(-32005, "limit exceeded")), "quota"],
    ["-32005 request rate exceeded in an HTTP 200", reply(200, refusal(-32005, "project ID request rate exceeded")), "quota"],
    ["-32005 daily request count exceeded in an HTTP 200", reply(200, refusal(-32005, "daily request count exceeded, request rate limited")), "quota"],
    ["Alchemy's compute units per second in an HTTP 200", reply(200, refusal(429, "Your app has exceeded its compute units per second capacity.")), "quota"],
    ["QuickNode's credits in an HTTP 200", reply(200, refusal(-32012, "credits limited to 6000/sec")), "quota"],
    ["QuickNode's request limit in an HTTP 200", reply(200, refusal(-32007, "100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com")), "quota"],
  ])("takes %s as the provider's refusal, not the node's answer: the call goes to the next endpoint", async (_name, quota, outcome) => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    a.answer = quota;
    b.answer = rpcResult("0x2");
    expect(await endpoints.send(call("eth_getBalance"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x2" }]);
    expect(endpoints.preferred()).toBe(1);
    const requests = (await registry.getMetricsAsJSON()).find((m) => m.name === "sweep_rpc_http_requests_total")!.values;
    expect(requests.find((v) => v.labels.endpoint === endpoints.labels[0] && v.labels.outcome === outcome)?.value).toBe(1);
    registry.resetMetrics();
  });

  it("sends a whole batch to the next endpoint when the provider refused one of its members for capacity", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    a.answer = (body, res) => {
      const calls = body as Array<{ id: number }>;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(calls.map((c, i) => (i === 1 ? { jsonrpc: "2.0", id: c.id, error: { code: 429, message: "Your app has exceeded its compute units per second capacity." } } : { jsonrpc: "2.0", id: c.id, result: "0x1" }))));
    };
    b.answer = rpcResult("0x2");
    const answers = await endpoints.send([call("eth_blockNumber", 1), call("eth_getTransactionReceipt", 2), call("eth_getTransactionReceipt", 3)]);
    expect(answers).toEqual([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, result: "0x2" })));
    expect(b.received.map((c) => c.method)).toEqual(["eth_blockNumber", "eth_getTransactionReceipt", "eth_getTransactionReceipt"]);
  });

  it("reads a pinned view again on the next endpoint, all of it, when the first refuses service; a node's own error is its answer", async () => {
    const provider = new ChainProvider(new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff }));
    a.answer = reply(200, refusal(-32007, "100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com"));
    b.answer = rpcResult("0x2");
    const endpointsAsked: number[] = [];
    const view = await provider.withOneView(async (pinned) => {
      endpointsAsked.push(pinned.endpoints.preferred());
      return [await freshHead(pinned), await pinned.send("eth_getBalance", ["0x0000000000000000000000000000000000000001", "0x2"])];
    });
    expect(view).toEqual([2, "0x2"]);
    expect(endpointsAsked).toEqual([0, 1]);
    expect(b.received.map((c) => c.method)).toEqual(["eth_blockNumber", "eth_getBalance"]);

    // A node's answer is no refusal of service: it stands, and no other endpoint is asked.
    await new Promise((r) => setTimeout(r, backoff.maxMs));
    a.answer = rpcError(-32000, "execution reverted");
    b.received.length = 0;
    await expect(provider.withOneView((pinned) => pinned.send("eth_call", [{ to: "0x0000000000000000000000000000000000000001" }, "latest"]))).rejects.toMatchObject({ code: "CALL_EXCEPTION" });
    expect(b.received).toEqual([]);
    provider.destroy();
  });

  it("keeps a node's -32005 about the query itself as its answer", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    a.answer = rpcError(-32005, "query returned more than 10000 results");
    expect(await endpoints.send(call("eth_getLogs"))).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "query returned more than 10000 results" } }]);
    expect(b.received).toEqual([]);
  });

  it.each([
    ["a Retry-After", reply(403, refusal(-32000, "Forbidden"), { "retry-after": "1" })],
    ["Infura's backoff_seconds", reply(200, refusal(-32005, "project ID request rate exceeded", { rate: { allowed_rps: 10, backoff_seconds: 1, current_rps: 12 } }))],
  ])("rests an endpoint that refused for its quota for %s (1 s here, not the 200 ms backoff)", async (_name, quota) => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    a.answer = quota;
    b.answer = rpcResult("0x2");
    await endpoints.send(call("eth_blockNumber"));
    // The refusal came before the call was answered: its second of rest is over a second after that.
    const refused = Date.now();
    a.answer = rpcResult("0x1");
    await new Promise((r) => setTimeout(r, backoff.baseMs + 100));
    expect(endpoints.preferred()).toBe(1);
    expect(await endpoints.send(call("eth_blockNumber"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x2" }]);
    await new Promise((r) => setTimeout(r, Math.max(0, refused + 1_000 - Date.now()) + 50));
    expect(endpoints.preferred()).toBe(0);
    expect(await endpoints.send(call("eth_blockNumber"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x1" }]);
  });

  it("reads a broadcast's quota answer as no answer from that endpoint, never as the node refusing the transaction", async () => {
    const provider = new ChainProvider(new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff }));
    const client = new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider });
    a.answer = reply(200, refusal(-32005, "daily request count exceeded, request rate limited"));
    b.answer = rpcResult("0xhash");
    expect(await client.broadcast("0x02")).toBe("accepted");
    b.answer = rpcError(-32000, "already known");
    await new Promise((r) => setTimeout(r, backoff.maxMs));
    expect(await client.broadcast("0x02")).toBe("known");
    // Every endpoint refusing for its plan: the transaction was not refused, it was not heard.
    b.answer = reply(402, { jsonrpc: "2.0", id: 1, error: { code: 402, message: "Payment Required" } });
    await new Promise((r) => setTimeout(r, backoff.maxMs));
    expect(await client.broadcast("0x02")).toBe("unavailable");
    provider.destroy();
  });

  it("fails over when an endpoint refuses connections, and takes it back once its backoff is over and it answers", async () => {
    await a.close();
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    b.answer = rpcResult("0x2");
    expect(await endpoints.send(call("eth_chainId"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x2" }]);
    expect(endpoints.preferred()).toBe(1);
    await new Promise((r) => setTimeout(r, backoff.baseMs + 50));
    expect(endpoints.preferred()).toBe(0);
  });

  it("still tries the endpoints when every one is out of rotation, and names them by host only when all fail", async () => {
    a.answer = status(502);
    b.answer = status(500);
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    await expect(endpoints.send(call("eth_chainId"))).rejects.toThrow(RpcTransportError);
    a.answer = rpcResult("0x3");
    expect(await endpoints.send(call("eth_chainId"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x3" }]);
    a.answer = status(502);
    const failure = await endpoints.send(call("eth_chainId")).catch((err: Error) => err);
    expect(failure).toBeInstanceOf(RpcTransportError);
    expect((failure as Error).message).toMatch(/^127\.0\.0\.1:\d+#?\d*: HTTP 50[02]$/);
    expect((failure as Error).message).not.toContain("secret");
  });

  it("sends a JSON-RPC batch to one endpoint, and a pinned request to that endpoint alone", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    b.answer = rpcResult("0x2");
    await endpoints.send([call("eth_blockNumber", 1), call("eth_getTransactionReceipt", 2)]);
    expect(a.received.map((c) => c.method)).toEqual(["eth_blockNumber", "eth_getTransactionReceipt"]);
    expect(b.received).toEqual([]);
    a.answer = status(503);
    await expect(endpoints.send(call("eth_blockNumber"), 0)).rejects.toThrow(/HTTP 503/);
    expect(b.received).toEqual([]);
  });

  it("broadcasts a transaction to every endpoint in rotation: one acceptance is enough", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    a.answer = rpcError(-32000, "insufficient funds for gas * price + value");
    b.answer = rpcResult("0xhash");
    expect(await endpoints.send(call("eth_sendRawTransaction"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0xhash" }]);
    expect([a.received.length, b.received.length]).toEqual([1, 1]);
    b.answer = rpcError(-32000, "already known");
    a.answer = status(503);
    expect(await endpoints.send(call("eth_sendRawTransaction"))).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "already known" } }]);
  });

  it("reads a transaction refused by one endpoint while another failed on transport as unavailable, never as the refusal: the failed one may hold it", async () => {
    const provider = new ChainProvider(new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 300, backoff }));
    const client = new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider });
    const rest = () => new Promise((r) => setTimeout(r, backoff.maxMs + 50));
    const broadcasts = (e: FakeEndpoint) => e.received.filter((c) => c.method === "eth_sendRawTransaction").length;
    a.answer = rpcError(-32000, "tx fee (1.20 ether) exceeds the configured cap (1.00 ether)");
    b.answer = status(502);
    expect(await client.broadcast("0x02")).toBe("unavailable");
    // Not asked again: a round without the endpoint that failed would read the refusal as final.
    expect([broadcasts(a), broadcasts(b)]).toEqual([1, 1]);
    await rest();
    b.answer = hang;
    expect(await client.broadcast("0x02")).toBe("unavailable");
    await rest();
    a.answer = rpcError(-32000, "authority already reserved");
    b.answer = status(503);
    expect(await client.broadcast("0x02")).toBe("unavailable");
    await rest();
    // Every endpoint answered: the refusal is the verdict; one that has it makes it sent.
    b.answer = rpcError(-32000, "tx fee (1.20 ether) exceeds the configured cap (1.00 ether)");
    expect(await client.broadcast("0x02")).toBe("authority_reserved");
    b.answer = rpcError(-32000, "already known");
    expect(await client.broadcast("0x02")).toBe("known");
    expect([broadcasts(a), broadcasts(b)]).toEqual([5, 5]);
    provider.destroy();
  });

  it("counts calls by method, HTTP requests by outcome, and scores each endpoint's health", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff });
    a.answer = status(503);
    await endpoints.send([call("eth_getBalance", 1), call("eth_getCode", 2)]);
    const metrics = await registry.getMetricsAsJSON();
    const values = (name: string) => metrics.find((m) => m.name === name)!.values as Array<{ labels: Record<string, string | number>; value: number }>;
    const [labelA, labelB] = endpoints.labels;
    const calls = values("sweep_rpc_calls_total").filter((v) => v.labels.endpoint === labelB && v.labels.chain_id === CHAIN_ID);
    expect(calls.map((v) => [v.labels.method, v.value]).sort()).toEqual([
      ["eth_getBalance", 1],
      ["eth_getCode", 1],
    ]);
    const requests = values("sweep_rpc_http_requests_total").filter((v) => v.labels.chain_id === CHAIN_ID);
    expect(requests.find((v) => v.labels.endpoint === labelA && v.labels.outcome === "http_5xx")?.value).toBe(1);
    expect(requests.find((v) => v.labels.endpoint === labelB && v.labels.outcome === "ok")?.value).toBe(1);
    const health = values("sweep_rpc_endpoint_health").filter((v) => v.labels.chain_id === CHAIN_ID);
    expect(health.find((v) => v.labels.endpoint === labelA)?.value).toBe(0);
    expect(health.find((v) => v.labels.endpoint === labelB)?.value).toBe(1);
    registry.resetMetrics();
  });

  it("asks again when a node behind the balancer lacks the block (header not found, or a known block read as null)", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url], { timeoutMs: 1_000, backoff });
    let asked = 0;
    a.answer = (body, res) => (++asked === 1 ? rpcError(-32000, "header not found")(body, res) : rpcResult("0x5")(body, res));
    expect(await endpoints.send(call("eth_getBalance"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x5" }]);
    expect(asked).toBe(2);

    a.answer = rpcResult("0x20");
    await endpoints.send(call("eth_blockNumber"));
    expect(endpoints.highestHead).toBe(32);
    asked = 0;
    a.answer = (body, res) => (++asked < 3 ? rpcResult(null)(body, res) : rpcResult({ number: "0x1f" })(body, res));
    expect(await endpoints.send({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0x1f", false] })).toEqual([{ jsonrpc: "2.0", id: 1, result: { number: "0x1f" } }]);
    expect(asked).toBe(3);
    // A block beyond any head seen may well not exist yet: null is the answer.
    asked = 0;
    a.answer = (body, res) => (++asked, rpcResult(null)(body, res));
    expect(await endpoints.send({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0x40", false] })).toEqual([{ jsonrpc: "2.0", id: 1, result: null }]);
    expect(asked).toBe(1);
  });

  it("asks again only the members of a batch a node behind answered, keeping the others' answers (a provider answers a batch's members from different backends)", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url], { timeoutMs: 1_000, backoff });
    const sent: string[][] = [];
    a.answer = (body, res) => {
      const calls = body as Array<{ id: number; method: string }>;
      sent.push(calls.map((c) => c.method));
      // The first time, the balance read reaches a backend without the block; the others answer.
      const answers = calls.map((c) => (c.method === "eth_getBalance" && sent.length === 1 ? { jsonrpc: "2.0", id: c.id, error: { code: -32000, message: "header not found" } } : { jsonrpc: "2.0", id: c.id, result: c.method === "eth_getBalance" ? "0x5" : "0x1" }));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(answers));
    };
    const batch = [
      { jsonrpc: "2.0" as const, id: 1, method: "eth_getCode", params: ["0x00", "0x10"] },
      { jsonrpc: "2.0" as const, id: 2, method: "eth_getBalance", params: ["0x00", "0x10"] },
      { jsonrpc: "2.0" as const, id: 3, method: "eth_getTransactionCount", params: ["0x00", "0x10"] },
    ];
    const answers = await endpoints.send(batch);
    expect(new Map(answers.map((x) => [x.id, "result" in x ? x.result : x.error]))).toEqual(new Map([[1, "0x1"], [2, "0x5"], [3, "0x1"]]));
    expect(sent).toEqual([["eth_getCode", "eth_getBalance", "eth_getTransactionCount"], ["eth_getBalance"]]);
  });

  it("retries a call every endpoint failed once the first is back, but never a timeout", async () => {
    const endpoints = new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 300, backoff });
    let asked = 0;
    a.answer = (body, res) => (++asked === 1 ? status(429, { "retry-after": "0" })(body, res) : rpcResult("0x7")(body, res));
    await b.close();
    expect(await endpoints.send(call("eth_call"))).toEqual([{ jsonrpc: "2.0", id: 1, result: "0x7" }]);
    expect(asked).toBe(2);

    const hung = new RpcEndpoints(CHAIN_ID, [a.url], { timeoutMs: 300, backoff });
    a.received.length = 0;
    a.answer = hang;
    await expect(hung.send(call("eth_call"))).rejects.toThrow(/no answer within 300 ms/);
    expect(a.received).toHaveLength(1);
  });

  it("gives the head no lower than any this process saw, asking again when a lagging node answers", async () => {
    const provider = new ChainProvider(new RpcEndpoints(CHAIN_ID, [a.url], { timeoutMs: 1_000, backoff }));
    const heads = ["0x10", "0x0c", "0x0d", "0x11"];
    a.answer = (body, res) => rpcResult(heads.shift())(body, res);
    expect(await freshHead(provider)).toBe(16);
    expect(await freshHead(provider)).toBe(17);
    a.answer = rpcResult("0x0c");
    await expect(freshHead(provider)).rejects.toThrow(/every answer was behind block 17 \(the last: 12\)/);
    expect(await freshHead(provider, 0).catch(() => "behind")).toBe("behind");
    a.answer = rpcResult("0x30");
    await expect(freshHead(provider, 0x31)).rejects.toThrow(/behind block 49/);
    provider.destroy();
  });

  it("gives ethers a provider whose failures are ChainCallErrors without the URL", async () => {
    a.answer = status(503);
    b.answer = status(503);
    const provider = new ChainProvider(new RpcEndpoints(CHAIN_ID, [a.url, b.url], { timeoutMs: 1_000, backoff }));
    const client = new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider });
    const failure = await client.headNumber().catch((err: Error) => err);
    expect(failure).toBeInstanceOf(ChainCallError);
    expect((failure as Error).message).toMatch(/^eth_blockNumber failed: 127\.0\.0\.1:\d+: HTTP 503$/);
    a.answer = rpcResult("0x10");
    await new Promise((r) => setTimeout(r, backoff.maxMs));
    expect(await client.headNumber()).toBe(16);
    provider.destroy();
  });
});

describe("Retry-After", () => {
  it.each([
    [null, undefined],
    ["", undefined],
    ["3", 3_000],
    ["Wed, 25 Nov 2026 18:00:10 GMT", 10_000],
    ["soon", undefined],
  ])("%j is %j ms", (header, ms) => {
    expect(retryAfterMs(header, Date.parse("Wed, 25 Nov 2026 18:00:00 GMT"))).toBe(ms);
  });
});
