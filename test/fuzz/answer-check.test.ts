import { answerProblems, type Answer } from "./answer-check";

const json = (status: number, body: unknown, type = "application/json; charset=utf-8"): Answer => ({ status, headers: { "content-type": type }, body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)) });
const error = (status: number, code: string, message = "what went wrong") => json(status, { error: { code, message } });

describe("answerProblems", () => {
  it.each<[string, Parameters<typeof answerProblems>[0], Answer, string[]]>([
    ["a 2xx", { method: "GET" }, json(200, { items: [] }), []],
    ["an error of the table at its status", { method: "POST" }, error(422, "invalid_amount"), []],
    ["429 rate_limited, the decided code", { method: "GET" }, error(429, "rate_limited"), []],
    ["422 too_many_hot_wallets, the decided code", { method: "POST" }, error(422, "too_many_hot_wallets"), []],
    ["a 500, even in the spec's shape", { method: "GET" }, error(500, "internal"), ["answered 500"]],
    ["a 502 of a proxy", { method: "GET" }, json(502, "<html>Bad Gateway</html>", "text/html"), ["answered 502", "an error answered as text/html, not JSON"]],
    ["express's text/plain OPTIONS answer", { method: "OPTIONS" }, json(404, "GET,HEAD", "text/plain"), ["an error answered as text/plain, not JSON"]],
    ["an error without a body", { method: "GET" }, { status: 400, headers: {}, body: Buffer.alloc(0) }, ["an error answered as no content type, not JSON"]],
    ["a HEAD error, which has no body", { method: "HEAD" }, { status: 404, headers: {}, body: Buffer.alloc(0) }, []],
    ["an error that is not JSON", { method: "GET" }, json(400, "{oops"), ["an error body that is not JSON"]],
    ["an error outside the shape", { method: "GET" }, json(400, { message: "bad" }), ["an error body outside the spec's shape: {\"message\":\"bad\"}"]],
    ["an error with more fields", { method: "GET" }, json(400, { error: { code: "invalid_json", message: "m", detail: 1 } }), [`an error body outside the spec's shape: {"error":{"code":"invalid_json","message":"m","detail":1}}`]],
    ["a code outside the table", { method: "GET" }, error(405, "method_not_allowed"), ["code method_not_allowed is not in the spec's error table"]],
    ["a code at another status", { method: "GET" }, error(413, "invalid_json"), ["code invalid_json came with 413, the table says 400"]],
    ["a stack trace", { method: "GET" }, error(400, "invalid_json", "Unexpected token\n    at JSON.parse (<anonymous>)\n    at parse (/app/node_modules/body-parser/lib/types/json.js:92:19)"), ["the body shows a stack frame", "the body shows a file path", "the body shows a source file", "the body shows node_modules"]],
    ["a source file", { method: "GET" }, error(400, "invalid_query", "failed in cursor.ts:12"), ["the body shows a source file"]],
    ["a home directory", { method: "GET" }, error(404, "not_found", "ENOENT: /home/sweep/keys.json"), ["the body shows a file path"]],
    ["an internal error's name", { method: "GET" }, error(400, "invalid_json", "TypeError: cannot read x"), ["the body shows an internal error name"]],
    ["the expected answer", { method: "POST", expect: { status: 400, code: "invalid_json" } }, error(400, "invalid_json"), []],
    ["429 in place of the expected answer", { method: "POST", expect: { status: 400, code: "invalid_json" } }, error(429, "rate_limited"), []],
    ["another answer than the expected", { method: "POST", expect: { status: 400, code: "invalid_json" } }, error(422, "invalid_amount"), ["the spec says 400 invalid_json, got 422 invalid_amount"]],
    ["a 2xx where the spec says 400", { method: "PUT", expect: { status: 400, code: "invalid_json" } }, json(200, {}), ["the spec says 400 invalid_json, got 200"]],
    ["express's 200 text/plain to an OPTIONS the document lacks", { method: "OPTIONS", undocumented: true }, json(200, "GET,HEAD", "text/plain"), ["answered 200 to OPTIONS, a method the document does not list for the path"]],
    ["an error to a method the document lacks", { method: "TRACE", undocumented: true }, error(404, "not_found"), []],
    ["a request path echoed in a message", { method: "GET" }, error(404, "not_found", "no such endpoint: GET /v1/sweeps/x/extra"), []],
  ])("%s", (_what, request, answer, problems) => {
    expect(answerProblems(request, answer)).toEqual(problems);
  });
});
