/**
 * A hosted provider's load-balanced JSON-RPC endpoint in front of one real node, with faults a
 * test sets and clears while it runs: backends that lag the head, 429s and 5xx, requests never
 * answered, methods the provider lacks, and answers in encodings other than anvil's.
 */
import http from "node:http";
import type { Socket } from "node:net";
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

export type FaultKind = "lag" | "http" | "timeout" | "drop" | "encoding" | "refuse" | "split" | "withhold";

export interface ProxyCounts {
  httpRequests: number;
  /** HTTP requests routed to each backend */
  byBackend: number[];
  /** JSON-RPC calls by method (a batch counts each of its calls), answered or not */
  byMethod: Record<string, number>;
  /** what the faults did: HTTP requests answered 429 or 5xx or held, calls answered as a lagging backend, as a missing method or re-encoded, batches reordered */
  faults: { http429: number; http5xx: number; timeouts: number; lagged: number; dropped: number; reencoded: number; reordered: number; split: number; withheld: number };
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
  /**
   * Answers each member of a batch from a backend of its own (with that backend's faults, a lag
   * among them) and the answers in another order, as hosted providers do (Alchemy documents it).
   */
  splitBatches(scope?: FaultScope): void;
  /** answers null to eth_getTransactionReceipt and eth_getTransactionByHash for the transactions `from` sent, mined or not */
  withholdTransactions(from: string, scope?: FaultScope): void;
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
}

interface Faults {
  lag: number;
  http: ShareState[];
  timeout: ShareState[];
  drop: Map<string, MissingMethodAnswer>;
  encoding: AnswerEncodings & { reorderBatches?: boolean };
  split: boolean;
  /** senders (lower case) whose transactions are withheld */
  withhold: Set<string>;
}

const noFaults = (): Faults => ({ lag: 0, http: [], timeout: [], drop: new Map(), encoding: {}, split: false, withhold: new Set() });

/** The methods answering about one transaction found by hash, which `withholdTransactions` answers null. */
const BY_HASH = new Set(["eth_getTransactionReceipt", "eth_getTransactionByHash"]);

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
    faults: { http429: 0, http5xx: 0, timeouts: 0, lagged: 0, dropped: 0, reencoded: 0, reordered: 0, split: 0, withheld: 0 },
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
    splitBatches: (scope) => {
      for (const f of scoped(scope)) f.split = true;
    },
    withholdTransactions: (from, scope) => {
      for (const f of scoped(scope)) f.withhold.add(from.toLowerCase());
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
        if (kind === undefined || kind === "split") f.split = fresh.split;
        if (kind === undefined || kind === "withhold") f.withhold = fresh.withhold;
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
