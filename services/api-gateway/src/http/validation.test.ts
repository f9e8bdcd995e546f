import { SweepListQuery, SweepRequest, WebhookRequest } from "@sweep/api-contract";
import { ApiError } from "./api-error";
import { parseRequest, type ValidationCodes } from "./validation";

const bodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: { chain_id: "unknown_chain", external_id: "invalid_external_id", hot_wallet: "invalid_address", account: "invalid_address", token: "unknown_token", amount: "invalid_amount", authorization: "invalid_authorization" },
};
const queryCodes: ValidationCodes = { shapeCode: "invalid_query", noun: "query parameter", valueCodes: {} };

const address = "0x52908400098527886E0F7030069857D2E4169EE7";
const valid = { chain_id: 97, hot_wallet: address, account: address.toLowerCase(), token: "usdt" };
const authorization = { chain_id: 97, address, nonce: 0, y_parity: 1, r: "0x1", s: "0x2" };

function refusal(schema: typeof SweepRequest | typeof SweepListQuery | typeof WebhookRequest, input: unknown, codes: ValidationCodes) {
  try {
    parseRequest(schema, input, codes);
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
  return null;
}

describe("parseRequest on a sweep request", () => {
  it("passes a valid body through", () => {
    expect(parseRequest(SweepRequest, { ...valid, amount: "5", authorization }, bodyCodes)).toEqual({ ...valid, amount: "5", authorization });
  });

  it.each<[string, unknown, string, RegExp]>([
    ["not an object", [1], "invalid_json", /^request body must be a JSON object$/],
    ["no body at all", undefined, "invalid_json", /^request body must be a JSON object$/],
    ["an unknown field", { ...valid, memo: "x" }, "invalid_json", /^unknown field memo$/],
    ["an unknown field inside the authorization", { ...valid, authorization: { ...authorization, v: 27 } }, "invalid_json", /^unknown field authorization\.v$/],
    ["a __proto__ field", JSON.parse(JSON.stringify(valid).replace("{", `{"__proto__": {"admin": true},`)), "invalid_json", /^unknown field __proto__$/],
    ["a missing required field", { ...valid, token: undefined }, "invalid_json", /^token is required$/],
    ["chain_id as a string", { ...valid, chain_id: "97" }, "invalid_json", /^chain_id must be a number$/],
    ["amount as a number", { ...valid, amount: 5 }, "invalid_json", /^amount must be a string$/],
    ["amount null", { ...valid, amount: null }, "invalid_json", /^amount must be a string$/],
    ["keep_one_unit as a string", { ...valid, keep_one_unit: "true" }, "invalid_json", /^keep_one_unit must be true or false$/],
    ["an authorization that is not an object", { ...valid, authorization: "0x05…" }, "invalid_json", /^authorization must be an object$/],
    ["authorization.r as a number", { ...valid, authorization: { ...authorization, r: 1 } }, "invalid_json", /^authorization\.r must be a string$/],
    ["a missing authorization field", { ...valid, authorization: { ...authorization, s: undefined } }, "invalid_json", /^authorization\.s is required$/],
    ["chain_id 0", { ...valid, chain_id: 0 }, "unknown_chain", /^chain_id must be an integer chain id of at least 1$/],
    ["a fractional chain_id", { ...valid, chain_id: 97.5 }, "unknown_chain", /^chain_id must be an integer/],
    ["an external_id over 128 characters", { ...valid, external_id: "x".repeat(129) }, "invalid_external_id", /^external_id must be 1 to 128 characters$/],
    ["an empty external_id", { ...valid, external_id: "" }, "invalid_external_id", /^external_id must be 1 to 128 characters$/],
    ["an external_id with NUL", { ...valid, external_id: "a\u0000b" }, "invalid_external_id", /^external_id must be valid Unicode text without NUL/],
    ["an external_id with a lone surrogate", { ...valid, external_id: "a\ud800b" }, "invalid_external_id", /^external_id must be valid Unicode text/],
    ["a malformed account", { ...valid, account: "0x123" }, "invalid_address", /^account must be a 0x-address of 40 hex digits$/],
    ["the zero address as hot wallet", { ...valid, hot_wallet: `0x${"0".repeat(40)}` }, "invalid_address", /^hot_wallet must not be the zero address$/],
    ["amount zero", { ...valid, amount: "0" }, "invalid_amount", /^amount must be above zero$/],
    ["a negative amount", { ...valid, amount: "-1" }, "invalid_amount", /^amount must be a string of decimal digits/],
    ["an amount with an exponent", { ...valid, amount: "1e18" }, "invalid_amount", /^amount must be a string of decimal digits/],
    ["an amount of 2^256", { ...valid, amount: (1n << 256n).toString() }, "invalid_amount", /^amount must be at most 2\^256-1$/],
    ["y_parity 2", { ...valid, authorization: { ...authorization, y_parity: 2 } }, "invalid_authorization", /^authorization\.y_parity must be 0 or 1$/],
    ["a malformed r", { ...valid, authorization: { ...authorization, r: "0xzz" } }, "invalid_authorization", /^authorization\.r must be 0x-hex/],
    ["an r over 32 bytes", { ...valid, authorization: { ...authorization, r: `0x${"1".repeat(65)}` } }, "invalid_authorization", /^authorization\.r must be 0x-hex/],
    ["a malformed authorization address", { ...valid, authorization: { ...authorization, address: "0xabc" } }, "invalid_authorization", /^authorization\.address must be a 0x-address/],
    ["a negative nonce", { ...valid, authorization: { ...authorization, nonce: -1 } }, "invalid_authorization", /^authorization\.nonce must not be negative$/],
    ["a nonce past 2^53", { ...valid, authorization: { ...authorization, nonce: 2 ** 60 } }, "invalid_authorization", /^authorization\.nonce must be an integer of at most 2\^53-1$/],
  ])("refuses %s", (_what, input, code, message) => {
    expect(refusal(SweepRequest, input, bodyCodes)).toEqual({ code, message: expect.stringMatching(message) });
  });

  it("reports a shape problem before any value problem, and value problems in the spec's order of codes", () => {
    expect(refusal(SweepRequest, { ...valid, amount: "0", chain_id: "97" }, bodyCodes)?.code).toBe("invalid_json");
    expect(refusal(SweepRequest, { ...valid, amount: "0", account: "0x1", external_id: "" }, bodyCodes)?.code).toBe("invalid_external_id");
    expect(refusal(SweepRequest, { ...valid, amount: "0", account: "0x1" }, bodyCodes)?.code).toBe("invalid_address");
  });
});

describe("parseRequest on a list query", () => {
  it("parses numbers out of query strings and defaults nothing itself", () => {
    expect(parseRequest(SweepListQuery, { limit: "200", chain_id: "97", status: "swept" }, queryCodes)).toEqual({ limit: 200, chain_id: 97, status: "swept" });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["limit 0", { limit: "0" }, /^limit must be an integer from 1 to 200$/],
    ["limit 201", { limit: "201" }, /^limit must be an integer from 1 to 200$/],
    ["limit with an exponent", { limit: "1e2" }, /^limit must be an integer from 1 to 200$/],
    ["limit given twice", { limit: ["1", "2"] }, /^limit must be given once$/],
    ["an unknown status", { status: "revoked" }, /^status must be one of queued, processing, swept, failed, rejected$/],
    ["a chain_id with letters", { chain_id: "97a" }, /^chain_id must be a chain id$/],
    ["a malformed account", { account: "0x1" }, /^account must be a 0x-address/],
    ["an unknown parameter", { page: "2" }, /^unknown query parameter page$/],
  ])("refuses %s with invalid_query naming the parameter", (_what, query, message) => {
    expect(refusal(SweepListQuery, query, queryCodes)).toEqual({ code: "invalid_query", message: expect.stringMatching(message) });
  });
});

describe("parseRequest with codes of nested fields", () => {
  const webhookCodes: ValidationCodes = {
    shapeCode: "invalid_json",
    noun: "field",
    valueCodes: { url: "invalid_url", "low_balance.chain_id": "unknown_chain", "low_balance.threshold": "invalid_amount" },
  };
  const url = "https://hooks.example.com/";

  it.each<[string, unknown, string, RegExp]>([
    ["a fractional chain_id in an array item", { url, low_balance: [{ chain_id: 1.5, threshold: "1" }] }, "unknown_chain", /^low_balance\.0\.chain_id must be an integer chain id/],
    ["a zero threshold in an array item", { url, low_balance: [{ chain_id: 97, threshold: "0" }] }, "invalid_amount", /^low_balance\.0\.threshold must be above zero$/],
    ["an unknown field in an array item", { url, low_balance: [{ chain_id: 97, threshold: "1", low: true }] }, "invalid_json", /^unknown field low_balance\.0\.low$/],
    ["a URL over 2048 characters", { url: `${url}${"a".repeat(2048)}` }, "invalid_url", /^url must be at most 2048 characters$/],
  ])("gives %s the code of its nested field", (_what, input, code, message) => {
    expect(refusal(WebhookRequest, input, webhookCodes)).toEqual({ code, message: expect.stringMatching(message) });
  });

  it("reports nested value problems in the order of their codes", () => {
    const input = { url: `${url}${"a".repeat(2048)}`, low_balance: [{ chain_id: 97, threshold: "0" }, { chain_id: 0, threshold: "1" }] };
    expect(refusal(WebhookRequest, input, webhookCodes)?.code).toBe("invalid_url");
    expect(refusal(WebhookRequest, { ...input, url }, webhookCodes)?.code).toBe("unknown_chain");
  });
});
