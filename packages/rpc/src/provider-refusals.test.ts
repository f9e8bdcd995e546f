import { capacityBackoffMs, endpointRefusal, isCapacityError, type WireAnswer } from "./provider-refusals";

const error = (code: number, message: string, data?: unknown): WireAnswer => ({ error: data === undefined ? { code, message } : { code, message, data } });
const result = (value: unknown): WireAnswer => ({ result: value });

const ALCHEMY_CUPS = "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput";
const QUICKNODE_RPS = "The requests per second (RPS) of your requests are higher than your plan allows.";

describe("a provider's refusal for its plan's limits", () => {
  it.each([
    ["EIP-1474's limit exceeded", error(-32005, "limit exceeded"), true],
    ["Infura's rate", error(-32005, "project ID request rate exceeded"), true],
    ["Infura's daily count", error(-32005, "daily request count exceeded, request rate limited"), true],
    ["a -32005 without words", error(-32005, ""), true],
    ["Alchemy's compute units per second (code 429)", error(429, ALCHEMY_CUPS), true],
    ["Alchemy's monthly capacity", error(-32000, "Monthly capacity limit exceeded. Visit https://dashboard.alchemy.com/settings/billing to upgrade your scaling policy for continued service."), true],
    ["Alchemy's rate limit for some IPs", error(-32016, "rate limit exceeded"), true],
    ["QuickNode's requests per second (code 429)", error(429, QUICKNODE_RPS), true],
    ["QuickNode's credits", error(-32012, "credits limited to 6000/sec"), true],
    ["QuickNode's request limit", error(-32007, "100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com"), true],
    ["Infura's daily credits (code 402)", error(402, "Payment Required"), true],
    ["a node's too many requests", error(-32000, "Too Many Requests"), true],
    ["eth_getLogs over 10,000 results under -32005", error(-32005, "query returned more than 10000 results"), false],
    ["a block range over the limit under -32005", error(-32005, "block range exceeds limit of 10000"), false],
    ["a revert", error(3, "execution reverted"), false],
    ["a node's own error", error(-32000, "insufficient funds for gas * price + value"), false],
    ["geth's block gas limit", error(-32000, "exceeds block gas limit"), false],
    ["geth's gas limit reached", error(-32000, "gas limit reached"), false],
    ["geth's fee cap", error(-32000, "tx fee (1.20 ether) exceeds the configured cap (1.00 ether)"), false],
    ["a stale backend", error(-32000, "header not found"), false],
    ["a missing method", error(-32601, "the method eth_simulateV1 does not exist/is not available"), false],
    ["a result", result("0x1"), false],
  ])("%s", (_name, answer, refused) => {
    expect(isCapacityError(answer.error)).toBe(refused);
  });

  it.each([
    [{ rate: { allowed_rps: 50, backoff_seconds: 30, current_rps: 52.3 } }, 30_000],
    [{ rate: { backoff_seconds: 1.5 } }, 1_500],
    [{ rate: { backoff_seconds: 0 } }, 0],
    [{ rate: {} }, undefined],
    [{ see: "https://infura.io/docs" }, undefined],
    [undefined, undefined],
  ])("Infura's data %j asks for a pause of %j ms", (data, ms) => {
    expect(capacityBackoffMs(error(-32005, "project ID request rate exceeded", data).error)).toBe(ms);
  });
});

describe("what an HTTP reply of an endpoint means", () => {
  const infura402 = { error: { code: 402, event: -33000, message: "Payment Required", details: "You have reached your daily credit limit." } } as WireAnswer;
  it.each([
    ["HTTP 200 with a result", 200, [result("0x1")], undefined, undefined],
    ["HTTP 200 with the node's error", 200, [error(-32000, "execution reverted")], undefined, undefined],
    ["HTTP 200 with -32005 over 10,000 logs", 200, [error(-32005, "query returned more than 10000 results")], undefined, undefined],
    ["HTTP 400 with the node's error (some providers)", 400, [error(-32602, "invalid argument 0")], undefined, undefined],
    ["HTTP 200 with -32005 limit exceeded", 200, [error(-32005, "limit exceeded")], undefined, { kind: "quota", detail: "refused: -32005 limit exceeded" }],
    ["HTTP 200 with Infura's rate and its backoff", 200, [error(-32005, "project ID request rate exceeded", { rate: { backoff_seconds: 2 } })], undefined, { kind: "quota", retryAfterMs: 2_000 }],
    ["HTTP 200 with Infura's daily count", 200, [error(-32005, "daily request count exceeded, request rate limited")], undefined, { kind: "quota" }],
    ["HTTP 200, one batch member refused by Alchemy", 200, [result("0x1"), error(429, ALCHEMY_CUPS), result("0x2")], undefined, { kind: "quota", detail: "a batch member refused: 429 Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out …" }],
    ["HTTP 200, every batch member refused by QuickNode", 200, [error(-32012, "credits limited to 6000/sec"), error(-32012, "credits limited to 6000/sec")], undefined, { kind: "quota" }],
    ["HTTP 200, QuickNode's request limit", 200, [error(-32007, "100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com")], undefined, { kind: "quota" }],
    ["HTTP 402 with Infura's body", 402, [infura402], undefined, { kind: "quota", detail: "HTTP 402 402 Payment Required" }],
    ["HTTP 402 without a body", 402, null, undefined, { kind: "quota", detail: "HTTP 402" }],
    ["HTTP 403 with a JSON-RPC body", 403, [error(-32000, "Forbidden")], undefined, { kind: "quota", detail: "HTTP 403 -32000 Forbidden" }],
    ["HTTP 403 with a page", 403, null, 5_000, { kind: "quota", detail: "HTTP 403", retryAfterMs: 5_000 }],
    ["HTTP 429 without a body, Retry-After", 429, null, 1_000, { kind: "http_429", detail: "429 too many requests", retryAfterMs: 1_000 }],
    ["HTTP 429 with Alchemy's body", 429, [error(429, ALCHEMY_CUPS)], undefined, { kind: "http_429" }],
    ["HTTP 429 with QuickNode's body", 429, [error(429, QUICKNODE_RPS)], undefined, { kind: "http_429", detail: `429 too many requests 429 ${QUICKNODE_RPS}` }],
    ["HTTP 429 with Infura's body: the header wins over backoff_seconds", 429, [error(-32005, "project ID request rate exceeded", { rate: { backoff_seconds: 30 } })], 3_000, { kind: "http_429", retryAfterMs: 3_000 }],
    ["HTTP 401 with a JSON-RPC body", 401, [error(401, "Unauthorized")], undefined, { kind: "http_status", detail: "HTTP 401" }],
    ["HTTP 404 with a page", 404, null, undefined, { kind: "http_status", detail: "HTTP 404" }],
    ["HTTP 503", 503, [error(-32005, "limited")], undefined, { kind: "http_5xx", detail: "HTTP 503" }],
    ["HTTP 200 with no JSON-RPC", 200, null, undefined, { kind: "malformed", detail: "the answer is not JSON-RPC" }],
  ] as const)("%s", (_name, status, answers, retryAfterMs, refusal) => {
    const read = endpointRefusal(status, answers as readonly WireAnswer[] | null, retryAfterMs);
    if (refusal === undefined) expect(read).toBeUndefined();
    else expect(read).toMatchObject(refusal);
  });
});
