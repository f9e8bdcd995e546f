import { ApiFailure, describeFailure, failureOf } from "./api-error";

describe("what the console says about a failure", () => {
  it.each([
    [new ApiFailure(422, "invalid_url", "url must be a public https URL"), "The webhook URL is not a public https URL: url must be a public https URL [invalid_url]"],
    [new ApiFailure(403, "partner_disabled", "the account is disabled"), "This account is disabled, so the API refuses its requests: the account is disabled [partner_disabled]"],
    [new ApiFailure(429, "rate_limited", "slow down", 7), "Too many requests (try again in 7 s): slow down [rate_limited]"],
    [new ApiFailure(418, "teapot", "odd"), "Something failed on the service side; try again later: odd [teapot]"],
    [new TypeError("fetch failed"), "The service could not be reached; check your connection and try again."],
  ])("%#", (failure, sentence) => {
    expect(describeFailure(failure)).toBe(sentence);
  });

  it("reads the spec's error body, and a body that is not one as internal", async () => {
    const spec = await failureOf(new Response(JSON.stringify({ error: { code: "not_found", message: "no such sweep" } }), { status: 404 }));
    expect([spec.status, spec.code, spec.message]).toEqual([404, "not_found", "no such sweep"]);
    const html = await failureOf(new Response("<html>bad gateway</html>", { status: 502, headers: { "Retry-After": "3" } }));
    expect([html.status, html.code, html.message, html.retryAfterSeconds]).toEqual([502, "internal", "HTTP 502", 3]);
  });
});
