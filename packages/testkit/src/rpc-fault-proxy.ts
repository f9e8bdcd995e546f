/**
 * A hosted provider's load-balanced JSON-RPC endpoint in front of one real node, with faults a
 * test sets and clears while it runs: backends that lag the head, 429s and 5xx, providers' quota
 * refusals, requests never answered, methods the provider lacks, and answers in encodings other
 * than anvil's.
 */
import http from "node:http";
import type { Socket } from "node:net";
import { Transaction, toQuantity, verifyAuthorization } from "ethers";
import { lagPlan, type JsonRpcAnswer, type JsonRpcCall } from "./lagging-backend";
import { changesEncoding, reencodeResult, type AnswerEncodings } from "./rpc-answer-encodings";
import { seededRandom, type Random } from "./seeded-random";

export interface RpcFaultProxyOptions {
  /** the real node; only a loopback address */
  target: string;
  /** virtual backends behind the endpoint (default 3) */
  backends?: number;
  /** how each HTTP request picks its backend (default round-robin) */
  routing?: "round-robin" | "random";
  /** seeds every random choice (routing, fractions, batch order); random when absent, see `seed` */
  seed?: number;
  /** 0 (default) picks a free port */
  port?: number;
}

/** Which backend a fault hits: one, or every one (the whole endpoint) when `backend` is absent. */
export interface FaultScope {
  backend?: number;
}

/** How many HTTP requests a fault hits: each with probability `fraction`, or the `next` ones; only those carrying one of `methods` when given. */
export interface FaultShare {
  fraction?: number;
  next?: number;
  methods?: readonly string[];
  /** the request reaches the node (a broadcast is sent) before its answer is lost */
  reachesNode?: boolean;
}

/** The answers providers give for a method they lack. */
export type MissingMethodAnswer = "-32601" | "-32600" | "-32004";

export type FaultKind = "lag" | "http" | "timeout" | "drop" | "encoding" | "refuse" | "quota" | "split" | "withhold" | "pool";

export interface ProxyCounts {
  httpRequests: number;
  /** HTTP requests routed to each backend */
  byBackend: number[];
  /** JSON-RPC calls by method (a batch counts each of its calls), answered or not */
  byMethod: Record<string, number>;
  /** HTTP requests answered with each provider quota refusal */
  quotaReplies: Partial<Record<QuotaReply, number>>;
  /** what the faults did: HTTP requests answered 429 or 5xx or held, calls answered as a lagging backend, as a missing method or re-encoded, batches reordered */
  faults: { http429: number; http5xx: number; timeouts: number; lagged: number; dropped: number; reencoded: number; reordered: number; quota: number; split: number; withheld: number; poolRefused: number };
}

export interface RpcFaultProxy {
  url: string;
  seed: number;
  backends: number;
  /** the backend answers as a node `blocks` behind the head; 0 catches it up */
  lag(blocks: number, scope?: FaultScope): void;
  /** answers HTTP `status` (429 with a provider's JSON-RPC error, 5xx with a load balancer's page) instead of the node's */
  httpErrors(status: number, share: FaultShare, scope?: FaultScope): void;
  /** holds requests unanswered until the client gives up (or the proxy closes) */
  timeouts(share: FaultShare, scope?: FaultScope): void;
  /** answers calls of `method` as a provider that lacks it */
  dropMethod(method: string, answer: MissingMethodAnswer, scope?: FaultScope): void;
  /** answers in other encodings; a batch's answers in another order with `reorderBatches` */
  encodings(encodings: AnswerEncodings & { reorderBatches?: boolean }, scope?: FaultScope): void;
  /** answers as a provider refusing for its plan's limits (see QuotaReply), never reaching the node */
  quota(reply: QuotaReply, share: FaultShare, scope?: FaultScope): void;
  /**
   * Answers each member of a batch from a backend of its own (with that backend's faults, a lag
   * among them) and the answers in another order, as hosted providers do (Alchemy documents it).
   */
  splitBatches(scope?: FaultScope): void;
  /** answers null to eth_getTransactionReceipt and eth_getTransactionByHash for the transactions `from` sent, mined or not */
  withholdTransactions(from: string, scope?: FaultScope): void;
  /**
   * Refuses eth_sendRawTransaction as geth's, Erigon's and reth's `--rpc.txfeecap` does when the
   * transaction's gas limit × max fee (or gas price) is over `capWei`: "tx fee (X ether) exceeds the
   * configured cap (Y ether)". Counted in `faults.poolRefused`; `clear("pool")` ends it.
   */
  feeCap(capWei: bigint, scope?: FaultScope): void;
  /**
   * The node's pool holds a transaction of each of `accounts` (its pending count one above the
   * latest), so geth refuses a transaction whose authorization list carries one of them:
   * "authority already reserved". Counted in `faults.poolRefused`; `clear("pool")` ends it.
   */
  reserveAuthorities(accounts: readonly string[], scope?: FaultScope): void;
  /** stops listening (clients get connection refused) until `clear("refuse")` or `clear()` */
  refuseConnections(): Promise<void>;
  /** clears one kind of fault (every kind when absent) for one scope (every backend and the endpoint when absent) */
  clear(kind?: FaultKind, scope?: FaultScope): Promise<void>;
  counts(): ProxyCounts;
  /** stops listening and releases every held request */
  close(): Promise<void>;
}

interface ShareState extends FaultShare {
  status?: number;
  reply?: QuotaReply;
}

interface Faults {
  lag: number;
  http: ShareState[];
  timeout: ShareState[];
  drop: Map<string, MissingMethodAnswer>;
  encoding: AnswerEncodings & { reorderBatches?: boolean };
  quota: ShareState[];
  split: boolean;
  /** senders (lower case) whose transactions are withheld */
  withhold: Set<string>;
  /** the pool's rules: a fee cap, and authorities (lower case) with a transaction pending */
  pool: { feeCap: bigint | null; reserved: Set<string> };
}

const noFaults = (): Faults => ({ lag: 0, http: [], timeout: [], drop: new Map(), encoding: {}, quota: [], split: false, withhold: new Set(), pool: { feeCap: null, reserved: new Set() } });

/** The methods answering about one transaction found by hash, which `withholdTransactions` answers null. */
const BY_HASH = new Set(["eth_getTransactionReceipt", "eth_getTransactionByHash"]);

/** geth prints ether with two decimals (`%.2f`). */
const inEther = (wei: bigint) => (Number(wei) / 1e18).toFixed(2);

/**
 * What geth's pool (and its RPC's fee cap) answers to a raw transaction under the faults: its
 * refusal, or null to let the node have it.
 */
function poolRefusal(rawTx: unknown, faults: readonly Faults[]): { code: number; message: string } | null {
  if (typeof rawTx !== "string") return null;
  let tx: Transaction;
  try {
    tx = Transaction.from(rawTx);
  } catch {
    return null;
  }
  const fee = tx.gasLimit * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n);
  const cap = faults.map((f) => f.pool.feeCap).find((c) => c !== null);
  if (cap !== undefined && cap !== null && fee > cap) return { code: -32000, message: `tx fee (${inEther(fee)} ether) exceeds the configured cap (${inEther(cap)} ether)` };
  const reserved = new Set(faults.flatMap((f) => [...f.pool.reserved]));
  const authorities = (tx.authorizationList ?? []).map((a) => {
    try {
      return verifyAuthorization({ address: a.address, nonce: a.nonce, chainId: a.chainId }, a.signature).toLowerCase();
    } catch {
      return null;
    }
  });
  if (authorities.some((a) => a !== null && reserved.has(a))) return { code: -32000, message: "authority already reserved" };
  return null;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const MAX_BODY = 16 * 1024 * 1024;

function missingMethodError(method: string, answer: MissingMethodAnswer) {
  switch (answer) {
    case "-32601":
      return { code: -32601, message: `the method ${method} does not exist/is not available` };
    case "-32600":
      return { code: -32600, message: `Unsupported method: ${method}` };
    case "-32004":
      return { code: -32004, message: `Method ${method} is not supported` };
  }
}

const errorPage = (status: number) => `<html>\r\n<head><title>${status} ${http.STATUS_CODES[status] ?? ""}</title></head>\r\n<body>\r\n<center><h1>${status} ${http.STATUS_CODES[status] ?? ""}</h1></center>\r\n</body>\r\n</html>\r\n`;

/**
 * A hosted provider's refusal for its plan's limits, as each sends it (sources in
 * packages/rpc/src/provider-refusals.ts): the status, the JSON-RPC error in the body (for each
 * member of a batch, or for one member while the others are answered), and the Retry-After.
 */
export type QuotaReply =
  | "402-daily-credits"
  | "403-forbidden"
  | "429-bare"
  | "32005-limit-exceeded"
  | "32005-request-rate"
  | "32005-daily-count"
  | "alchemy-cups"
  | "alchemy-cups-batch-member"
  | "quicknode-rps"
  | "quicknode-credits"
  | "quicknode-request-limit";

interface QuotaShape {
  status: number;
  /** the body's error; none for an empty body */
  error?: { code: number; message: string; data?: unknown; event?: number; details?: string };
  /** for a batch: the error for every member (in an array), for one member with the others answered, or once for the whole request */
  members: "every" | "one" | "request";
  retryAfter?: string;
}

const ALCHEMY_CUPS = "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput";
export const QUOTA_REPLIES: Readonly<Record<QuotaReply, QuotaShape>> = {
  // Infura at its daily credit limit.
  "402-daily-credits": { status: 402, members: "request", error: { code: 402, event: -33000, message: "Payment Required", details: "You have reached your daily credit limit. To continue making requests, upgrade your plan or purchase additional credits" } },
  // An endpoint disabled or over its capacity (QuickNode, Alchemy), here with a JSON-RPC body that is no node's.
  "403-forbidden": { status: 403, members: "request", error: { code: -32000, message: "Forbidden" } },
  // A public endpoint's CDN: no body, a Retry-After.
  "429-bare": { status: 429, members: "request", retryAfter: "1" },
  "32005-limit-exceeded": { status: 200, members: "every", error: { code: -32005, message: "limit exceeded" } },
  // Infura's, in an HTTP 200 here (it sends it with a 429 too), with its suggested pause.
  "32005-request-rate": { status: 200, members: "every", error: { code: -32005, message: "project ID request rate exceeded", data: { rate: { allowed_rps: 10, backoff_seconds: 1, current_rps: 12.5 }, see: "https://infura.io/docs/ethereum/jsonrpc/ratelimits" } } },
  "32005-daily-count": { status: 200, members: "every", error: { code: -32005, message: "daily request count exceeded, request rate limited" } },
  "alchemy-cups": { status: 429, members: "request", error: { code: 429, message: ALCHEMY_CUPS } },
  "alchemy-cups-batch-member": { status: 200, members: "one", error: { code: 429, message: ALCHEMY_CUPS } },
  "quicknode-rps": { status: 429, members: "request", error: { code: 429, message: "The requests per second (RPS) of your requests are higher than your plan allows." } },
  "quicknode-credits": { status: 200, members: "every", error: { code: -32012, message: "credits limited to 6000/sec" } },
  "quicknode-request-limit": { status: 200, members: "every", error: { code: -32007, message: "100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com" } },
};

export async function startRpcFaultProxy(options: RpcFaultProxyOptions): Promise<RpcFaultProxy> {
  const target = new URL(options.target);
  if (!LOOPBACK.has(target.hostname)) throw new Error(`the fault proxy sends traffic to a loopback node only, not ${target.hostname}`);
  const backends = options.backends ?? 3;
  if (!Number.isInteger(backends) || backends < 1) throw new RangeError(`backends must be a positive integer, got ${backends}`);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
  const random: Random = seededRandom(seed);
  const endpoint = noFaults();
  const perBackend = Array.from({ length: backends }, noFaults);
  const counts: ProxyCounts = {
    httpRequests: 0,
    byBackend: Array(backends).fill(0),
    byMethod: {},
    quotaReplies: {},
    faults: { http429: 0, http5xx: 0, timeouts: 0, lagged: 0, dropped: 0, reencoded: 0, reordered: 0, quota: 0, split: 0, withheld: 0, poolRefused: 0 },
  };
  const held = new Set<http.ServerResponse>();
  const sockets = new Set<Socket>();
  let nextBackend = 0;
  let refusing = false;

  const scoped = (scope: FaultScope = {}): Faults[] => {
    if (scope.backend === undefined) return [endpoint];
    const faults = perBackend[scope.backend];
    if (!faults) throw new RangeError(`no backend ${scope.backend}: the proxy has ${backends}`);
    return [faults];
  };

  /** Whether a share hits this request; consumes one of its `next`. */
  const hits = (share: ShareState, methods: readonly string[]): boolean => {
    if (share.methods && !methods.some((m) => share.methods!.includes(m))) return false;
    if (share.next !== undefined) {
      if (share.next <= 0) return false;
      share.next--;
      return true;
    }
    return random.chance(share.fraction ?? 0);
  };
  const firstHit = (shares: ShareState[], methods: readonly string[]) => shares.find((s) => hits(s, methods));

  const forward = async (body: unknown): Promise<unknown> => {
    const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.json();
  };
  const headNumber = async (): Promise<number> => Number(BigInt(((await forward({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] })) as { result: string }).result));

  async function answerCalls(calls: JsonRpcCall[], faults: Faults[]): Promise<JsonRpcAnswer[]> {
    const lag = Math.max(...faults.map((f) => f.lag));
    const view = lag > 0 ? Math.max(0, (await headNumber()) - lag) : undefined;
    const encoding: AnswerEncodings = Object.assign({}, ...faults.map((f) => f.encoding));
    return Promise.all(
      calls.map(async (call): Promise<JsonRpcAnswer> => {
        const missing = faults.map((f) => f.drop.get(call.method)).find((a) => a !== undefined);
        if (missing) {
          counts.faults.dropped++;
          return { jsonrpc: "2.0", id: call.id, error: missingMethodError(call.method, missing) };
        }
        if (call.method === "eth_sendRawTransaction") {
          const refusal = poolRefusal((call.params as unknown[] | undefined)?.[0], faults);
          if (refusal) {
            counts.faults.poolRefused++;
            return { jsonrpc: "2.0", id: call.id, error: refusal };
          }
        }
        const [account, tag] = (call.params as unknown[] | undefined) ?? [];
        if (call.method === "eth_getTransactionCount" && tag === "pending" && typeof account === "string" && faults.some((f) => f.pool.reserved.has(account.toLowerCase()))) {
          // The account's own transaction waits in the pool: one above what the chain counts.
          const latest = (await forward({ ...call, params: [account, "latest"] })) as JsonRpcAnswer;
          return typeof latest.result === "string" ? { ...latest, result: toQuantity(BigInt(latest.result) + 1n) } : latest;
        }
        let answer: JsonRpcAnswer;
        if (view === undefined) answer = (await forward(call)) as JsonRpcAnswer;
        else {
          counts.faults.lagged++;
          const plan = lagPlan(call, view);
          answer = "answer" in plan ? plan.answer : plan.adjust((await forward(plan.call)) as JsonRpcAnswer);
        }
        const sender = answer.result !== null && typeof answer.result === "object" && !Array.isArray(answer.result) ? answer.result.from : undefined;
        if (BY_HASH.has(call.method) && typeof sender === "string" && faults.some((f) => f.withhold.has(sender.toLowerCase()))) {
          counts.faults.withheld++;
          answer = { ...answer, result: null };
        }
        if (changesEncoding(encoding) && answer.result !== undefined) {
          counts.faults.reencoded++;
          answer = { ...answer, result: reencodeResult(call.method, answer.result, encoding) };
        }
        return answer;
      }),
    );
  }

  const send = (res: http.ServerResponse, status: number, contentType: string, body: string) => {
    if (res.destroyed) return;
    res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
    res.end(body);
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) return send(res, 413, "text/plain", "request too large");
      chunks.push(chunk);
    }
    counts.httpRequests++;
    const backend = options.routing === "random" ? random.int(0, backends - 1) : nextBackend++ % backends;
    counts.byBackend[backend]!++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 200, "application/json", JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
    }
    const batch = Array.isArray(parsed);
    const calls = (batch ? parsed : [parsed]) as JsonRpcCall[];
    const methods = calls.map((c) => String(c?.method));
    for (const method of methods) counts.byMethod[method] = (counts.byMethod[method] ?? 0) + 1;
    const faults = [endpoint, perBackend[backend]!];

    const timeout = firstHit(faults.flatMap((f) => f.timeout), methods);
    if (timeout) {
      counts.faults.timeouts++;
      held.add(res);
      res.on("close", () => held.delete(res));
      if (timeout.reachesNode) await answerCalls(calls, faults).catch(() => undefined);
      return;
    }
    const failure = firstHit(faults.flatMap((f) => f.http), methods);
    if (failure) {
      if (failure.reachesNode) await answerCalls(calls, faults).catch(() => undefined);
      const status = failure.status!;
      if (status === 429) {
        counts.faults.http429++;
        // Infura's and others' answer to a client over its plan's rate.
        const first = calls[0] as Partial<JsonRpcCall> | undefined;
        return send(res, 429, "application/json", JSON.stringify({ jsonrpc: "2.0", id: first?.id ?? null, error: { code: -32005, message: "Too Many Requests: request rate exceeded" } }));
      }
      counts.faults.http5xx++;
      return send(res, status, "text/html", errorPage(status));
    }

    const quota = firstHit(faults.flatMap((f) => f.quota), methods);
    if (quota) {
      const reply = quota.reply!;
      const shape = QUOTA_REPLIES[reply];
      counts.faults.quota++;
      counts.quotaReplies[reply] = (counts.quotaReplies[reply] ?? 0) + 1;
      const refusal = (call: Partial<JsonRpcCall> | undefined) => ({ jsonrpc: "2.0", id: call?.id ?? null, error: shape.error });
      let body = "";
      if (shape.error && shape.members === "one" && batch && calls.length > 1) {
        // The provider served the others: one backend answered them, the last member was refused.
        const answers: unknown[] = await answerCalls(calls.slice(0, -1), faults);
        body = JSON.stringify([...answers, refusal(calls.at(-1))]);
      } else if (shape.error) body = JSON.stringify(batch && shape.members !== "request" ? calls.map(refusal) : refusal(calls[0]));
      if (res.destroyed) return;
      res.writeHead(shape.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(shape.retryAfter ? { "retry-after": shape.retryAfter } : {}) });
      res.end(body);
      return;
    }

    if (batch && calls.length > 1 && faults.some((f) => f.split)) {
      counts.faults.split++;
      // Member i goes to the backend i places after the request's: neighbours never share one.
      const split = await Promise.all(calls.map(async (call, i) => (await answerCalls([call], [endpoint, perBackend[(backend + i) % backends]!]))[0]!));
      return send(res, 200, "application/json", JSON.stringify(random.shuffle(split)));
    }
    const answers = await answerCalls(calls, faults);
    if (batch && answers.length > 1 && faults.some((f) => f.encoding.reorderBatches)) {
      counts.faults.reordered++;
      const shuffled = random.shuffle(answers);
      // JSON-RPC 2.0 lets a batch's answers come in any order: make sure this one is not the request's.
      const order = shuffled.every((a, i) => a === answers[i]) ? [...answers].reverse() : shuffled;
      return send(res, 200, "application/json", JSON.stringify(order));
    }
    send(res, 200, "application/json", JSON.stringify(batch ? answers : answers[0]));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 502, "text/plain", `the node did not answer: ${String(err)}`));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const stopListening = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of held) res.destroy();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const port = await listen(options.port ?? 0);

  return {
    url: `http://127.0.0.1:${port}`,
    seed,
    backends,
    lag: (blocks, scope) => {
      if (!Number.isInteger(blocks) || blocks < 0) throw new RangeError(`a lag is a whole number of blocks, got ${blocks}`);
      for (const f of scoped(scope)) f.lag = blocks;
    },
    httpErrors: (status, share, scope) => {
      if (status !== 429 && (status < 500 || status > 599)) throw new RangeError(`the proxy answers 429 or 5xx, not ${status}`);
      for (const f of scoped(scope)) f.http.push({ ...share, status });
    },
    timeouts: (share, scope) => {
      for (const f of scoped(scope)) f.timeout.push({ ...share });
    },
    dropMethod: (method, answer, scope) => {
      for (const f of scoped(scope)) f.drop.set(method, answer);
    },
    encodings: (encodings, scope) => {
      for (const f of scoped(scope)) f.encoding = { ...f.encoding, ...encodings };
    },
    quota: (reply, share, scope) => {
      if (!(reply in QUOTA_REPLIES)) throw new RangeError(`no quota reply ${String(reply)}`);
      for (const f of scoped(scope)) f.quota.push({ ...share, reply });
    },
    splitBatches: (scope) => {
      for (const f of scoped(scope)) f.split = true;
    },
    withholdTransactions: (from, scope) => {
      for (const f of scoped(scope)) f.withhold.add(from.toLowerCase());
    },
    feeCap: (capWei, scope) => {
      if (capWei <= 0n) throw new RangeError(`a fee cap is above zero, got ${capWei}`);
      for (const f of scoped(scope)) f.pool.feeCap = capWei;
    },
    reserveAuthorities: (accounts, scope) => {
      for (const f of scoped(scope)) for (const account of accounts) f.pool.reserved.add(account.toLowerCase());
    },
    refuseConnections: async () => {
      if (refusing) return;
      refusing = true;
      await stopListening();
    },
    clear: async (kind, scope) => {
      const all = scope === undefined ? [endpoint, ...perBackend] : scoped(scope);
      for (const f of all) {
        const fresh = noFaults();
        if (kind === undefined || kind === "lag") f.lag = fresh.lag;
        if (kind === undefined || kind === "http") f.http = fresh.http;
        if (kind === undefined || kind === "timeout") f.timeout = fresh.timeout;
        if (kind === undefined || kind === "drop") f.drop = fresh.drop;
        if (kind === undefined || kind === "encoding") f.encoding = fresh.encoding;
        if (kind === undefined || kind === "quota") f.quota = fresh.quota;
        if (kind === undefined || kind === "split") f.split = fresh.split;
        if (kind === undefined || kind === "withhold") f.withhold = fresh.withhold;
        if (kind === undefined || kind === "pool") f.pool = fresh.pool;
      }
      if ((kind === undefined || kind === "refuse") && refusing) {
        refusing = false;
        await listen(port);
      }
    },
    counts: () => structuredClone(counts),
    close: async () => {
      if (!refusing) await stopListening();
      refusing = true;
    },
  };
}
