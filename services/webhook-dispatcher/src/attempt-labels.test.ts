import { attemptLabels, type AttemptLabels } from "./attempt-labels";
import type { AttemptResult } from "./attempt-errors";

describe("the labels of a recorded attempt", () => {
  it.each<[string, AttemptResult, boolean, AttemptLabels]>([
    ["delivered", { outcome: "delivered", statusCode: 204 }, false, { outcome: "delivered", reason: "http_2xx" }],
    ["delivered at the last attempt", { outcome: "delivered", statusCode: 200 }, true, { outcome: "delivered", reason: "http_2xx" }],
    ["refused by a server error", { outcome: "failed", statusCode: 503, error: "status 503" }, false, { outcome: "failed", reason: "http_5xx" }],
    ["refused by a client error", { outcome: "failed", statusCode: 410, error: "status 410" }, false, { outcome: "failed", reason: "http_4xx" }],
    ["a redirect, which is not followed", { outcome: "failed", statusCode: 302, error: "status 302" }, false, { outcome: "failed", reason: "http_3xx" }],
    ["a status outside HTTP's classes", { outcome: "failed", statusCode: 999, error: "status 999" }, false, { outcome: "failed", reason: "http_other" }],
    ["the last attempt failing gives up", { outcome: "failed", statusCode: 500, error: "status 500" }, true, { outcome: "gave_up", reason: "http_5xx" }],
    ["a timeout", { outcome: "failed", statusCode: null, error: "timeout" }, false, { outcome: "failed", reason: "timeout" }],
    ["a refused connection", { outcome: "failed", statusCode: null, error: "connection refused" }, false, { outcome: "failed", reason: "connection_refused" }],
    ["a failed lookup", { outcome: "failed", statusCode: null, error: "DNS lookup failed" }, true, { outcome: "gave_up", reason: "dns_lookup_failed" }],
    ["a TLS error", { outcome: "failed", statusCode: null, error: "TLS error" }, false, { outcome: "failed", reason: "tls_error" }],
    ["a private address", { outcome: "failed", statusCode: null, error: "private address refused" }, false, { outcome: "failed", reason: "private_address_refused" }],
    ["a status error without its code", { outcome: "failed", statusCode: null, error: "status 418" }, false, { outcome: "failed", reason: "http_other" }],
  ])("%s", (_name, result, lastAttempt, labels) => {
    expect(attemptLabels(result, lastAttempt)).toEqual(labels);
  });
});
