import { SweepNetworkError } from "./errors";
import { isRetryableAnswer, isTransientFailure, retryAfterMs, retryingFetch } from "./retry";

describe("isRetryableAnswer", () => {
  it.each([
    ["POST", "/v1/sweeps", 500, "internal", true],
    ["POST", "/v1/sweeps", 503, undefined, true],
    ["POST", "/v1/sweeps", 429, undefined, true],
    ["POST", "/v1/sweeps", 409, "hot_wallet_not_active", true],
    ["POST", "/v1/sweeps", 409, "something_else", false],
    ["POST", "/v1/sweeps", 422, "invalid_authorization", false],
    ["GET", "/v1/sweeps/1", 404, "not_found", false],
    ["GET", "/v1/balance", 502, undefined, true],
    ["PUT", "/v1/webhook", 500, "internal", true],
    // Each POST /v1/webhook/test queues a new event: sending it again could queue two.
    ["POST", "/v1/webhook/test", 500, "internal", false],
    ["POST", "/base/v1/webhook/test", 503, undefined, false],
    ["POST", "/v1/revocations", 202, undefined, false],
  ])("%s %s answered %i %s: retry %s", (method, path, status, code, expected) => {
    expect(isRetryableAnswer(method, path, status, code)).toBe(expected);
  });

  it.each([
    ["fetch's network failure", new TypeError("fetch failed"), true],
    ["an attempt that ran out of time", new DOMException("timed out", "TimeoutError"), true],
    ["the caller's abort", new DOMException("aborted", "AbortError"), false],
    ["anything else", new Error("boom"), false],
  ])("%s: retry %s", (_case, error, expected) => {
    expect(isTransientFailure(error)).toBe(expected);
  });
});

describe("retryingFetch", () => {
  const fast = { initialDelayMs: 1, maxDelayMs: 2 };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  /** A fetch that gives the scripted answers in turn and keeps each request's body. */
  function scripted(...answers: Array<Response | Error>) {
    const bodies: string[] = [];
    const fake = jest.fn(async (input: Request) => {
      bodies.push(await (input as Request).text());
      const answer = answers.shift()!;
      if (answer instanceof Error) throw answer;
      return answer;
    });
    return { fetch: fake as unknown as typeof fetch, bodies };
  }
  const post = (path: string, body: unknown) => new Request(`http://api.test${path}`, { method: "POST", body: JSON.stringify(body) });

  it("sends the same request again after a network failure and a 503, and returns the answer", async () => {
    const { fetch, bodies } = scripted(new TypeError("fetch failed"), json(503, { error: { code: "internal", message: "x" } }), json(202, { id: "s1" }));
    const response = await retryingFetch(fetch, fast)(post("/v1/sweeps", { external_id: "e1" }));
    expect(response.status).toBe(202);
    expect(bodies).toEqual(Array(3).fill('{"external_id":"e1"}'));
  });

  it("waits out a hot wallet whose delegate is being deployed", async () => {
    const { fetch } = scripted(json(409, { error: { code: "hot_wallet_not_active", message: "pending" } }), json(202, { id: "s1" }));
    expect((await retryingFetch(fetch, fast)(post("/v1/sweeps", {}))).status).toBe(202);
  });

  it("returns an answer that is not worth repeating at once", async () => {
    const { fetch, bodies } = scripted(json(422, { error: { code: "invalid_authorization", message: "signed by 0x…" } }));
    const response = await retryingFetch(fetch, fast)(post("/v1/sweeps", {}));
    expect(response.status).toBe(422);
    expect(bodies).toHaveLength(1);
  });

  it("returns the last answer, readable, when the attempts run out", async () => {
    const { fetch, bodies } = scripted(json(500, { n: 1 }), json(500, { n: 2 }), json(500, { n: 3 }));
    const response = await retryingFetch(fetch, { ...fast, attempts: 3 })(post("/v1/sweeps", {}));
    expect(await response.json()).toEqual({ n: 3 });
    expect(bodies).toHaveLength(3);
  });

  it("throws a network error naming the API's address and the attempts made when they run out", async () => {
    const { fetch } = scripted(new TypeError("fetch failed"), new TypeError("fetch failed"));
    const failure = retryingFetch(fetch, { ...fast, attempts: 2 })(post("/v1/sweeps", {}));
    await expect(failure).rejects.toThrow(SweepNetworkError);
    await expect(failure).rejects.toMatchObject({
      target: { origin: "http://api.test", method: "POST", pathname: "/v1/sweeps" },
      attempts: 2,
      message: 'could not reach the API at http://api.test (POST /v1/sweeps): 2 attempts failed, the last with "fetch failed"; check baseUrl and the network',
      cause: expect.objectContaining({ message: "fetch failed" }),
    });
  });

  it("waits as long as a 429's Retry-After says before asking again", async () => {
    const limited = new Response(JSON.stringify({ error: { code: "rate_limited", message: "slow down" } }), { status: 429, headers: { "retry-after": "1" } });
    const { fetch, bodies } = scripted(limited, json(200, { ok: true }));
    const started = Date.now();
    expect((await retryingFetch(fetch, fast)(post("/v1/sweeps", {}))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(bodies).toHaveLength(2);
  });

  it("never repeats a test event", async () => {
    const { fetch, bodies } = scripted(json(500, {}), json(202, {}));
    expect((await retryingFetch(fetch, fast)(post("/v1/webhook/test", {}))).status).toBe(500);
    expect(bodies).toHaveLength(1);
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    const fake = jest.fn(async () => {
      controller.abort();
      throw new TypeError("fetch failed");
    });
    const request = new Request("http://api.test/v1/balance", { signal: controller.signal });
    await expect(retryingFetch(fake as unknown as typeof fetch, fast)(request)).rejects.toThrow("fetch failed");
    expect(fake).toHaveBeenCalledTimes(1);
  });
});

describe("retryAfterMs", () => {
  it.each([
    ["absent", null, 0],
    ["seconds", "2", 2000],
    ["more than a minute", "3600", 60_000],
    ["an HTTP date", "Wed, 21 Oct 2026 07:28:00 GMT", 0],
    ["zero", "0", 0],
    ["negative", "-5", 0],
  ])("%s", (_case, header, expected) => {
    expect(retryAfterMs(header)).toBe(expected);
  });
});
