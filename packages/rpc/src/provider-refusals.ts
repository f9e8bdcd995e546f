/**
 * What an HTTP reply of a chain's endpoint means: the node's answer, or the endpoint refusing to
 * serve now (so the request goes to the next endpoint and this one rests). A hosted provider's
 * plan limits are the endpoint's, never the node's: they come as HTTP 402, 403 or 429, or as a
 * JSON-RPC error in an HTTP 200, alone or as one member of a batch. What each provider answers,
 * and where it was read:
 *
 * - Infura: HTTP 402 with `{code: 402, message: "Payment Required"}` at the daily credit limit
 *   (docs.metamask.io/services/how-to/avoid-rate-limiting); -32005 "project ID request rate
 *   exceeded" with `data.rate.backoff_seconds`, sent with HTTP 429 (github.com/INFURA/infura#201,
 *   ethers-io/ethers.js#640); -32005 "daily request count exceeded, request rate limited"
 *   (CirclesUBI/circles-myxogastria#54, taikoxyz/taiko-mono#13952).
 * - Alchemy: HTTP 429 over HTTP, JSON-RPC code 429 "Your app has exceeded its compute units per
 *   second capacity…" in a body (alchemy.com/docs/reference/throughput, latticexyz/mud#1522), and
 *   per refused member of a batch answered HTTP 200; HTTP 403 "You've hit your capacity limit"
 *   (its error reference); "Monthly capacity limit exceeded" (its support pages); -32016 with
 *   "rate limit" for some IPs (alloy-rs/alloy's retry policy).
 * - QuickNode: HTTP 429 with `{code: 429, message: "The requests per second (RPS) of your requests
 *   are higher than your plan allows."}`, HTTP 403 "Endpoint Disabled" (quicknode.com/docs/*
 *   /error-references); -32012 "credits limited to 6000/sec" per member of a batch
 *   (latticexyz/mud#1522, foundry-rs/foundry#6712); -32007 "100/second request limit reached"
 *   (foundry-rs/foundry#4894).
 *
 * -32005 is EIP-1474's "limit exceeded", which nodes and providers also use for a query too big to
 * answer (Infura's and others' eth_getLogs "query returned more than 10000 results", Nethermind's
 * payload too large, a block range over the limit): that one is the node's answer about the
 * request, and another endpoint would refuse it alike.
 */

/** Why an endpoint served no node's answer, besides no answer at all (a timeout, no connection). */
export type EndpointRefusalKind = "quota" | "http_429" | "http_5xx" | "http_status" | "malformed";

export interface EndpointRefusal {
  kind: EndpointRefusalKind;
  /** for logs and errors: the status and the provider's words, without URLs */
  detail: string;
  /** how long the provider asked us to wait (Retry-After, Infura's backoff_seconds) */
  retryAfterMs?: number;
}

/** One JSON-RPC answer as it came over the wire. */
export interface WireAnswer {
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** Statuses that mean the plan or the key, whatever the body: 402 (out of credits), 403 (over capacity, endpoint disabled), 401 (a key refused). */
const QUOTA_STATUSES = new Set([402, 403]);
const KEY_REFUSED = 401;

/** A query the node finds too big: the node's answer about the request, even under -32005. */
const QUERY_TOO_BIG = /returned more than|results|block range|range .*(exceed|limit|too)|too (large|big)|payload|response size|max(imum)? .*blocks/i;
/** Providers' words for "over the plan's limits", under whatever code they choose. */
const CAPACITY_WORDS =
  /rate limit|rate exceeded|request rate|too many requests|request count exceeded|request limit|compute units|capacity limit|exceeded .*capacity|credits? (limit|exhausted|exceeded)|credits limited|daily credit|quota|requests per second|higher than your plan|payment required/i;

/** Whether one JSON-RPC error is a provider refusing for its plan's limits, not the node answering. */
export function isCapacityError(error: WireAnswer["error"]): boolean {
  if (!error) return false;
  const code = error.code;
  const message = typeof error.message === "string" ? error.message : "";
  if (code === 429 || code === 402) return true;
  if (code === -32005) return !QUERY_TOO_BIG.test(message);
  return CAPACITY_WORDS.test(message) && !QUERY_TOO_BIG.test(message);
}

/** Infura's `data.rate.backoff_seconds` (0 when it has none to suggest), in ms. */
export function capacityBackoffMs(error: WireAnswer["error"]): number | undefined {
  const data = error?.data;
  const rate = typeof data === "object" && data !== null ? (data as { rate?: unknown }).rate : undefined;
  const seconds = typeof rate === "object" && rate !== null ? (rate as { backoff_seconds?: unknown }).backoff_seconds : undefined;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

/**
 * The endpoint's refusal in an HTTP reply, or undefined when the answers are the node's. `answers`
 * is the body read as JSON-RPC answers (null when it is not). A batch with one member refused for
 * capacity is refused as a whole: its other answers may come from another backend than a retry
 * would reach, and callers batch reads that must come from one node's view.
 */
export function endpointRefusal(status: number, answers: readonly WireAnswer[] | null, retryAfterMs?: number): EndpointRefusal | undefined {
  const refusedMember = answers?.find((a) => isCapacityError(a.error));
  const words = refusedMember ? ` ${describeError(refusedMember.error)}` : "";
  const waitMs = retryAfterMs ?? (refusedMember ? capacityBackoffMs(refusedMember.error) : undefined);
  const refusal = (kind: EndpointRefusalKind, detail: string): EndpointRefusal => (waitMs === undefined ? { kind, detail } : { kind, detail, retryAfterMs: waitMs });
  if (status === 429) return refusal("http_429", `429 too many requests${words}`);
  if (status >= 500) return refusal("http_5xx", `HTTP ${status}`);
  if (QUOTA_STATUSES.has(status)) return refusal("quota", `HTTP ${status}${words || answerWords(answers)}`);
  if (status === KEY_REFUSED) return refusal("http_status", `HTTP ${status}`);
  if (!answers) return refusal(status >= 200 && status < 300 ? "malformed" : "http_status", status >= 200 && status < 300 ? "the answer is not JSON-RPC" : `HTTP ${status}`);
  if (refusedMember) return refusal("quota", `${answers.length > 1 ? `a batch member refused:` : "refused:"}${words}`);
  return undefined;
}

function answerWords(answers: readonly WireAnswer[] | null): string {
  const error = answers?.find((a) => a.error)?.error;
  return error ? ` ${describeError(error)}` : "";
}

/** The error's code and message, its URLs left out (a provider's links are noise in a log line). */
function describeError(error: WireAnswer["error"]): string {
  const message = typeof error?.message === "string" ? error.message.replace(/https?:\/\/\S+/g, "…").slice(0, 160) : "";
  return `${String(error?.code)} ${message}`.trim();
}
