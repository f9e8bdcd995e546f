import { gunzipSync } from "node:zlib";
import { openApiDocument } from "@sweep/api-contract";
import { seededRandom } from "@sweep/testkit";
import { operationsOf } from "./operations";
import { fieldPaths, fuzzRequest, MAX_BODY_BYTES, objectPaths, sampleOf, type FuzzRequest } from "./request-generator";

const keys = { valid: `svc_test_${"v".repeat(43)}`, disabled: `svc_test_${"d".repeat(43)}` };
const operations = operationsOf(openApiDocument());
const draw = (seed: number, n: number) => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => fuzzRequest(random, operations, keys));
};

describe("the fuzzer's operations", () => {
  it("are every operation of the OpenAPI document, with its parameters and body schema resolved", () => {
    const document = openApiDocument() as unknown as { paths: Record<string, Record<string, unknown>> };
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort());
    const sweeps = operations.find((o) => o.method === "POST" && o.path === "/v1/sweeps")!;
    expect(sweeps).toMatchObject({ needsKey: true, pathParams: [] });
    expect(sweeps.body?.properties?.authorization?.properties).toHaveProperty("y_parity");
    expect(operations.find((o) => o.path === "/v1/sweeps/{id}")).toMatchObject({ pathParams: ["id"] });
    expect(operations.find((o) => o.method === "GET" && o.path === "/v1/sweeps")!.query.map((q) => q.name)).toEqual(expect.arrayContaining(["limit", "cursor"]));
    expect(operations.find((o) => o.path === "/healthz")).toMatchObject({ needsKey: false });
  });
});

describe("the fuzzer's requests", () => {
  it("are the same for the same seed and differ for another", () => {
    const summary = (r: FuzzRequest) => [r.method, r.target, r.headers, r.body?.toString("base64")];
    expect(draw(7, 200).map(summary)).toEqual(draw(7, 200).map(summary));
    expect(draw(8, 200).map(summary)).not.toEqual(draw(7, 200).map(summary));
  });

  const many = draw(42, 5_000);
  const withMutation = (name: string) => many.filter((r) => r.mutations.includes(name));

  it("reach every operation and every mutation, with and without a valid key", () => {
    expect(new Set(many.map((r) => r.mutations[0])).size).toBeGreaterThanOrEqual(20);
    for (const operation of operations) expect(many.some((r) => r.target.startsWith(operation.path.replace(/\{.*$/, "")))).toBe(true);
    expect(new Set(many.map((r) => r.auth))).toEqual(new Set(["valid", "none", "malformed", "unknown", "live", "disabled"]));
    expect(many.filter((r) => r.headers.authorization === undefined).every((r) => r.auth === "none")).toBe(true);
  });

  it.each([
    ["odd methods", (r: FuzzRequest) => ["OPTIONS", "TRACE", "PATCH"].includes(r.method) && r.mutations.includes("odd method")],
    ["bodies just under, at and over 64 KiB", (r: FuzzRequest) => r.body?.length === MAX_BODY_BYTES],
    ["bodies over 64 KiB", (r: FuzzRequest) => (r.body?.length ?? 0) > MAX_BODY_BYTES],
    ["garbage under a Content-Encoding", (r: FuzzRequest) => ["gzip", "deflate", "br"].includes(String(r.headers["content-encoding"])) && r.mutations.includes("garbage Content-Encoding")],
    ["a gzip bomb", (r: FuzzRequest) => r.mutations.includes("over 64 KiB inflated") && r.headers["content-encoding"] === "gzip" && gunzippedLength(r.body!) > MAX_BODY_BYTES],
    ["repeated query parameters", (r: FuzzRequest) => /[?&](\w+)=[^&]*&(?:.*&)?\1=/.test(r.target)],
    ["number literals beyond float64", (r: FuzzRequest) => r.mutations.includes("extreme number literal") && /[:,[]1e400[,}\]]/.test(r.body!.toString())],
    ["bad cursors", (r: FuzzRequest) => /[?&]cursor=/.test(r.target)],
    ["a wrong charset", (r: FuzzRequest) => /charset=(latin1|utf-16)/.test(String(r.headers["content-type"]))],
  ])("include %s", (_what, is) => {
    expect(many.some(is)).toBe(true);
  });

  it("expect 400 invalid_json only of a lone body mutation with a valid key on an operation that takes a body", () => {
    const expecting = many.filter((r) => r.expect);
    expect(expecting.length).toBeGreaterThan(100);
    for (const r of expecting) {
      expect(r.expect).toEqual({ status: 400, code: "invalid_json" });
      expect(r.auth).toBe("valid");
      expect(["POST", "PUT", "PATCH"]).toContain(r.method);
    }
    expect(withMutation("unknown field").filter((r) => r.mutations.length === 1 && r.auth === "valid").every((r) => r.expect)).toBe(true);
  });

  it("mark the methods the document does not list for the path, HEAD of a GET aside", () => {
    const listed = (r: FuzzRequest) => operations.some((o) => o.method === r.method && r.target.split("?")[0] === o.path);
    expect(many.filter((r) => r.method === "OPTIONS").every((r) => r.undocumented)).toBe(true);
    expect(many.filter((r) => r.mutations.length === 1 && r.mutations[0] !== "odd method" && !r.mutations[0]!.includes("path")).every((r) => !r.undocumented)).toBe(true);
    expect(many.filter((r) => r.undocumented).some(listed)).toBe(false);
  });

  it("carry only what an HTTP request line and headers can carry", () => {
    for (const r of many) {
      expect(r.target).toMatch(/^\/[\x21-\x7e]*$/);
      for (const value of Object.values(r.headers).flat()) expect(value).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    }
  });
});

describe("sampleOf and the body paths", () => {
  it.each([
    [{ type: "integer", minimum: 1 }, 1],
    [{ type: "string", example: "USDT" }, "USDT"],
    [{ type: "string", pattern: "^[0-9]+$" }, expect.stringMatching(/^[0-9]+$/)],
    [{ type: "string", pattern: "^0x[0-9a-fA-F]{40}$" }, expect.stringMatching(/^0x[0-9a-f]{40}$/)],
    [{ type: "string", enum: ["a"] }, "a"],
    [{ type: "object", properties: { n: { type: "integer", minimum: 3 } } }, { n: 3 }],
    [{ type: "array", items: { type: "string", minLength: 2 } }, ["xx"]],
  ])("samples %j as %p", (schema, sample) => {
    expect(sampleOf(schema, seededRandom(1))).toEqual(sample);
  });

  it("list every field, nested ones too, and every object, the body first", () => {
    const body = { a: 1, b: { c: 2, d: { e: 3 } } };
    expect(fieldPaths(body)).toEqual([["a"], ["b"], ["b", "c"], ["b", "d"], ["b", "d", "e"]]);
    expect(objectPaths(body)).toEqual([[], ["b"], ["b", "d"]]);
  });
});

/** A later mutation may have spoilt the bomb's gzip (garbage under the same Content-Encoding): such a body inflates to nothing. */
function gunzippedLength(body: Buffer): number {
  try {
    return gunzipSync(body).length;
  } catch {
    return 0;
  }
}
