import { rpcCalls, rpcEndpointHealth, rpcHttpRequests, rpcRequestSeconds } from "@sweep/metrics";
import type { JsonRpcError, JsonRpcPayload, JsonRpcResult } from "ethers";
import { DEFAULT_BACKOFF, afterFailure, afterSuccess, attemptOrder, freshHealth, healthScore, isUp, type Backoff, type EndpointHealth } from "./endpoint-health";
import { broadcastVerdict, countsAsSent } from "./node-errors";
import { endpointRefusal, type EndpointRefusalKind } from "./provider-refusals";
import { endpointLabels } from "./rpc-url";

export type RpcAnswer = JsonRpcResult | JsonRpcError;

/** Rounds of a call after every endpoint failed it: each waits for the first endpoint back, at most this long. */
const TRANSPORT_RETRIES = 2;
const MAX_TRANSPORT_RETRY_PAUSE_MS = 2_000;
/** Rounds of a call a node answered "unknown block": the next request likely reaches a node at the head. */
const STALE_RETRIES = 2;
const STALE_RETRY_PAUSE_MS = 50;

/** A node's answer that it lacks the block asked for: geth "header not found", others "unknown block" / "block not found". */
export function isUnknownBlockAnswer(answer: RpcAnswer): boolean {
  return "error" in answer && /header not found|unknown block|block not found|block .* not found|missing trie node/i.test(String(answer.error?.message));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Why an endpoint gave no node's answer; each is a reason to try the next endpoint. `quota`: the
 * provider refused for its plan's limits otherwise than by a 429 (HTTP 402 or 403, or a JSON-RPC
 * capacity error such as -32005 "limit exceeded" in the body), see provider-refusals.ts.
 */
export type TransportFailureKind = "timeout" | "connection" | EndpointRefusalKind;

/** No endpoint answered. The message names endpoints by host only: their URLs carry providers' keys. */
export class RpcTransportError extends Error {
  constructor(
    readonly kind: TransportFailureKind,
    readonly endpoint: string,
    detail: string,
    readonly retryAfterMs?: number,
  ) {
    super(`${endpoint}: ${detail}`);
    this.name = "RpcTransportError";
  }
}

/**
 * A transaction's broadcast no endpoint took: some refused it, but another failed on transport (in
 * this round or an earlier one of the call), and may hold it in its pool. Not a node's verdict (a
 * refusal read as final would have a smaller transaction take its nonce while it can still be
 * mined), and not asked again: a round without the failed endpoint would make the refusal look final.
 */
class UnsettledBroadcastError extends RpcTransportError {
  constructor(failure: RpcTransportError) {
    super(failure.kind, failure.endpoint, "", failure.retryAfterMs);
    this.message = `${failure.message} (another endpoint refused the transaction)`;
  }
}

export interface RpcEndpointsOptions {
  /** one HTTP request to one endpoint longer than this is a timeout (the next endpoint is tried) */
  timeoutMs: number;
  backoff?: Backoff;
}

interface Endpoint {
  url: string;
  label: string;
  health: EndpointHealth;
}

/**
 * The endpoints of one chain (`RPC_URL_<chain_id>`, comma-separated) behind one `send`: a request
 * goes to the first endpoint in rotation and fails over to the next on a timeout, a 429, a 5xx, a
 * refused connection, an answer that is not JSON-RPC, or a provider's refusal for its plan's
 * limits (HTTP 402/403, a capacity error in the body, even of one member of a batch); a node's
 * JSON-RPC error is an answer, not a failure. A transaction goes to every endpoint in rotation, so
 * one provider's pool missing it delays nothing, and a provider's quota answer is no answer. Every request is counted per endpoint (calls by method, HTTP requests by
 * outcome, latency, health score).
 */
export class RpcEndpoints {
  private readonly endpoints: Endpoint[];
  private readonly backoff: Backoff;
  private head = 0;

  constructor(
    readonly chainId: number,
    urls: readonly string[],
    private readonly options: RpcEndpointsOptions,
  ) {
    if (urls.length === 0) throw new Error(`chain ${chainId} has no RPC endpoint`);
    const labels = endpointLabels(urls);
    this.endpoints = urls.map((url, i) => ({ url, label: labels[i]!, health: freshHealth() }));
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    for (const endpoint of this.endpoints) this.reportHealth(endpoint, Date.now());
  }

  /** The endpoints' labels (hosts), in the configured order: safe to log. */
  get labels(): string[] {
    return this.endpoints.map((e) => e.label);
  }

  /** The endpoint a request would go to first now (its index): reads that must agree are pinned to it. */
  preferred(): number {
    return attemptOrder(
      this.endpoints.map((e) => e.health),
      Date.now(),
    )[0]!;
  }

  /** The highest block number any endpoint of the chain has shown this process: no read needs to go back before it. */
  get highestHead(): number {
    return this.head;
  }

  /**
   * Sends a JSON-RPC call or batch; `pinned` sends it to that endpoint alone (no failover), for reads
   * that must come from one node's view. Behind one URL a provider balances over nodes at different
   * heights, and answers a batch's members from different nodes: a member answered that the block
   * asked for is unknown ("header not found") is asked again on its own (the others' answers kept),
   * while each round leaves fewer such members and twice more, and another node likely answers. When every endpoint failed (not by a timeout), the call waits for
   * the first to come back (at most 2 s, its Retry-After included) and tries again, twice at most:
   * a 429 while the other endpoint is down must not fail the work that asked.
   */
  async send(payload: JsonRpcPayload | JsonRpcPayload[], pinned?: number): Promise<RpcAnswer[]> {
    let asked = payload;
    /** answers kept from earlier rounds while a batch's stale members are asked again */
    const kept: RpcAnswer[] = [];
    // A round that left fewer stale members than the last is progress, not one of the STALE_RETRIES.
    let staleRetries = 0;
    let lastStale = Infinity;
    let failed: RpcTransportError | undefined;
    for (let transportRetries = 0; ; ) {
      let answers: RpcAnswer[];
      try {
        answers = await this.sendOnce(asked, pinned, failed);
      } catch (err) {
        // A node that hangs is not asked again: that would only multiply the wait for the failure.
        if (!(err instanceof RpcTransportError) || err instanceof UnsettledBroadcastError || err.kind === "timeout" || transportRetries >= TRANSPORT_RETRIES) throw err;
        failed = err;
        transportRetries++;
        await sleep(this.untilFirstBack(pinned));
        continue;
      }
      // A provider answers a batch's members from different backends: only those a node behind answered are asked again.
      const stale = this.staleCalls(asked, answers);
      if (stale.length > 0 && (stale.length < lastStale || staleRetries < STALE_RETRIES)) {
        if (stale.length >= lastStale) staleRetries++;
        lastStale = stale.length;
        const again = new Set(stale.map((call) => call.id));
        kept.push(...answers.filter((a) => !again.has(a.id)));
        asked = Array.isArray(payload) ? stale : stale[0]!;
        await sleep(STALE_RETRY_PAUSE_MS);
        continue;
      }
      return [...kept, ...answers];
    }
  }

  private sendOnce(payload: JsonRpcPayload | JsonRpcPayload[], pinned?: number, failedBefore?: RpcTransportError): Promise<RpcAnswer[]> {
    const calls = Array.isArray(payload) ? payload : [payload];
    if (calls.length === 1 && calls[0]!.method === "eth_sendRawTransaction" && pinned === undefined) return this.broadcast(payload, failedBefore);
    return this.inOrder(payload, pinned === undefined ? attemptOrder(this.endpoints.map((e) => e.health), Date.now()) : [pinned]);
  }

  private async inOrder(payload: JsonRpcPayload | JsonRpcPayload[], order: readonly number[]): Promise<RpcAnswer[]> {
    let failure: RpcTransportError | undefined;
    for (const index of order) {
      try {
        return await this.sendTo(this.endpoints[index]!, payload);
      } catch (err) {
        if (!(err instanceof RpcTransportError)) throw err;
        failure = err;
      }
    }
    throw failure!;
  }

  /** How long until the first of the endpoints a call may use is back in rotation, within [50 ms, 2 s]. */
  private untilFirstBack(pinned?: number): number {
    const candidates = pinned === undefined ? this.endpoints : [this.endpoints[pinned]!];
    const soonest = Math.min(...candidates.map((e) => e.health.downUntil));
    return Math.min(MAX_TRANSPORT_RETRY_PAUSE_MS, Math.max(STALE_RETRY_PAUSE_MS, soonest - Date.now()));
  }

  /**
   * To every endpoint in rotation at once (the first to try when none is): the first acceptance
   * answers at once; otherwise, once all have answered, the first node's answer, else the failure.
   * A refusal is the answer only when no endpoint failed on transport (`failedBefore`: in an earlier
   * round of the call): one that failed may have taken the transaction into its pool, so the failure
   * is the answer then (UnsettledBroadcastError), unless a node answered that it has the transaction
   * or its nonce is used (what counts as sent).
   */
  private broadcast(payload: JsonRpcPayload | JsonRpcPayload[], failedBefore?: RpcTransportError): Promise<RpcAnswer[]> {
    const now = Date.now();
    const inRotation = this.endpoints.filter((e) => isUp(e.health, now));
    const targets = inRotation.length > 0 ? inRotation : [this.endpoints[attemptOrder(this.endpoints.map((e) => e.health), now)[0]!]!];
    return new Promise((resolve, reject) => {
      const answers: RpcAnswer[][] = [];
      const failures: unknown[] = [];
      const settle = () => {
        if (answers.length + failures.length < targets.length) return;
        const failure = failures[0] ?? failedBefore;
        const sent = answers.find((answer) => answer.every((a) => countsAsSent(broadcastVerdict(a))));
        if (answers.length === 0) reject(failures[0]);
        else if (failure === undefined || sent !== undefined) resolve(sent ?? answers[0]!);
        else reject(failure instanceof RpcTransportError ? new UnsettledBroadcastError(failure) : failure);
      };
      for (const endpoint of targets) {
        this.sendTo(endpoint, payload).then(
          (answer) => {
            if (answer.every((a) => "result" in a)) resolve(answer);
            answers.push(answer);
            settle();
          },
          (err: unknown) => {
            failures.push(err);
            settle();
          },
        );
      }
    });
  }

  private async sendTo(endpoint: Endpoint, payload: JsonRpcPayload | JsonRpcPayload[]): Promise<RpcAnswer[]> {
    const calls = Array.isArray(payload) ? payload : [payload];
    for (const call of calls) rpcCalls.inc({ chain_id: this.chainId, endpoint: endpoint.label, method: call.method });
    const started = performance.now();
    const observe = (outcome: string) => {
      rpcHttpRequests.inc({ chain_id: this.chainId, endpoint: endpoint.label, outcome });
      rpcRequestSeconds.observe({ chain_id: this.chainId, endpoint: endpoint.label }, (performance.now() - started) / 1000);
    };
    try {
      const answers = await this.post(endpoint, payload);
      observe(answers.some((a) => "error" in a) ? "rpc_error" : "ok");
      this.observeHeads(calls, answers);
      endpoint.health = afterSuccess(endpoint.health);
      this.reportHealth(endpoint, Date.now());
      return answers;
    } catch (err) {
      const failure = err instanceof RpcTransportError ? err : new RpcTransportError("connection", endpoint.label, describe(err));
      observe(failure.kind);
      endpoint.health = afterFailure(endpoint.health, Date.now(), this.backoff, failure.retryAfterMs);
      this.reportHealth(endpoint, Date.now());
      throw failure;
    }
  }

  private async post(endpoint: Endpoint, payload: JsonRpcPayload | JsonRpcPayload[]): Promise<RpcAnswer[]> {
    const fail = (kind: TransportFailureKind, detail: string, retryAfterMs?: number) => new RpcTransportError(kind, endpoint.label, detail, retryAfterMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payload),
        redirect: "error",
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      // The signal's reason is a DOMException, which is no Error in Node 20: its name tells.
      const name = typeof err === "object" && err !== null && "name" in err ? (err as { name: unknown }).name : undefined;
      if (name === "TimeoutError" || name === "AbortError") throw fail("timeout", `no answer within ${this.options.timeoutMs} ms`);
      throw fail("connection", describe(err));
    }
    const answers = jsonRpcAnswers(text);
    // Some providers answer a node's error with a 4xx and a JSON-RPC body: an answer, unless it is the provider's own refusal.
    const refusal = endpointRefusal(response.status, answers, retryAfterMs(response.headers.get("retry-after")));
    if (refusal) throw fail(refusal.kind, refusal.detail, refusal.retryAfterMs);
    return answers!;
  }

  /**
   * The calls a node behind the others answered: "unknown block", or a block this process has seen
   * read by number and answered null.
   */
  private staleCalls(payload: JsonRpcPayload | JsonRpcPayload[], answers: readonly RpcAnswer[]): JsonRpcPayload[] {
    const calls = Array.isArray(payload) ? payload : [payload];
    return calls.filter((call) => {
      const answer = answers.find((a) => a.id === call.id);
      if (answer === undefined) return false;
      if (isUnknownBlockAnswer(answer)) return true;
      if (call.method !== "eth_getBlockByNumber") return false;
      const tag: unknown = (call.params as unknown[] | undefined)?.[0];
      return typeof tag === "string" && /^0x[0-9a-f]+$/i.test(tag) && Number(tag) <= this.head && "result" in answer && answer.result === null;
    });
  }

  /** Heads shown by eth_blockNumber and by a block read (eth_getBlockByNumber) raise highestHead. */
  private observeHeads(calls: readonly JsonRpcPayload[], answers: readonly RpcAnswer[]): void {
    const byId = new Map(answers.map((a) => [a.id, a]));
    for (const call of calls) {
      const answer = byId.get(call.id);
      if (!answer || !("result" in answer)) continue;
      const result: unknown = answer.result;
      const number = call.method === "eth_blockNumber" ? result : call.method === "eth_getBlockByNumber" && typeof result === "object" && result !== null ? (result as { number?: unknown }).number : undefined;
      if (typeof number === "string" && /^0x[0-9a-f]+$/i.test(number)) this.head = Math.max(this.head, Number(number));
    }
  }

  private reportHealth(endpoint: Endpoint, now: number): void {
    rpcEndpointHealth.set({ chain_id: this.chainId, endpoint: endpoint.label }, healthScore(endpoint.health, now));
  }
}

function jsonRpcAnswers(text: string): RpcAnswer[] | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const answers = Array.isArray(body) ? body : [body];
  const isAnswer = (a: unknown) => typeof a === "object" && a !== null && ("result" in a || "error" in a);
  return answers.length > 0 && answers.every(isAnswer) ? (answers as RpcAnswer[]) : null;
}

/** Retry-After in seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An error's words without the URL undici puts in some (a fetch failure's cause names the host, never the path). */
function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String((cause as { code: unknown }).code) : undefined;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}
