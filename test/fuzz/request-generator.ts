/**
 * Malformed requests over the API's operations, drawn from a seeded source: the same seed gives
 * the same requests, so a failing fuzz run is replayed with its printed seed. Pure: nothing here
 * sends anything.
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { Random } from "@sweep/testkit";
import type { JsonSchema, Operation } from "./operations";

export const MAX_BODY_BYTES = 64 * 1024;

export type AuthKind = "valid" | "none" | "malformed" | "unknown" | "live" | "disabled";

export interface FuzzRequest {
  method: string;
  /** path and query string, as sent */
  target: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  auth: AuthKind;
  /** what was done to it, for the failure report */
  mutations: string[];
  /** the method is not one the document lists for the path (HEAD of a GET aside): no answer but an error fits */
  undocumented: boolean;
  /** the one answer the spec allows, when it allows one (besides 429 rate_limited) */
  expect?: { status: number; code: string };
}

/** The keys the stack gave the fuzzer's partners. */
export interface FuzzKeys {
  valid: string;
  disabled: string;
}

type Draft = Omit<FuzzRequest, "target" | "undocumented"> & { path: string; query: Array<[string, string]>; rawQuery?: string; operation: Operation };
type Mutation = (random: Random, draft: Draft) => void;

const ODD_METHODS = ["OPTIONS", "TRACE", "PATCH", "PUT", "DELETE", "POST", "GET", "HEAD", "PROPFIND", "PURGE", "SEARCH", "LOCK", "MKCOL"];

/** Values of every JSON type and of the edges the validators meet. */
const ODD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.0, 1e308, -1e308, 2 ** 53, 2 ** 63, Number.MAX_SAFE_INTEGER + 2, 4294967296, 1e-300,
  "", " ", "0", "-1", "1e309", "NaN", "Infinity", "0x10", "00012", "١٢٣", "9".repeat(400), "a".repeat(5000), "\u0000", "\ud800", "😀".repeat(50), "\u202e", "𝟙𝟚𝟛",
  "0x" + "0".repeat(40), "0x" + "f".repeat(40), "0x" + "g".repeat(40), "0x" + "a".repeat(39), "0X" + "A".repeat(40),
  "<script>alert(1)</script>", "' OR 1=1 --", "${jndi:ldap://x}", "%s%s%s%n", "../../etc/passwd",
  [], [1, 2], ["a"], {}, { a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}'), [[[[[]]]]],
];

const RAW_NUMBER = "\u0000raw number\u0000";
const EXTREME_NUMBERS = ["1e400", "-1e400", "-0", "123456789012345678901234567890", "-123456789012345678901234567890", "0.0000000000000000000001", "1E+2", "9007199254740993", "18446744073709551616", "1.0", "-1", "4.9e-324"];

/** Raw JSON texts that are not JSON, or JSON that is not an object (a leading BOM is not here: RFC 8259 lets a parser ignore it). */
const BAD_JSON = [
  "", "{", "}", "{\"a\":", "{'a': 1}", "{\"a\": 1,}", "[1,]", "nul", "NaN", "{\"a\": NaN}", "{\"a\": Infinity}", "{\"a\": 01}",
  "{\"a\": 1e99999}", "{\"a\": -}", "{\"a\": \"\\u12\"}", "{\"a\": \"\\x41\"}", "\"just a string\"", "42", "null", "true", "[]", "[{}]",
  "{\"a\":1}{\"b\":2}", "{\"a\": \"unterminated}", "{\"__proto__\": {\"admin\": true}}", "{\"constructor\": {\"prototype\": {}}}",
  "/* comment */ {}", "{\"a\": 1} // trailing", "\u0000", "{\"a\":\"\u0000\"}",
];

const BAD_QUERY_VALUES = [
  "", "0", "-1", "201", "91", "1.5", "1e3", "1e309", "99999999999999999999999", "-0", "+5", " 5", "5 ", "0x10", "abc", "null", "undefined",
  "%00", "%ff", "%E0%A4%A", "%", "%%", "%u0041", "a".repeat(1500), "[]", "{}", "true", "NaN", "Infinity", "9007199254740993", "١٢",
];

const BAD_CURSORS = [
  "", "x", "!!!!", "====", "eyJ9", "eyJhIjoxfQ", "eyJpZCI6IjEifQ==", Buffer.from('{"seq":"-1"}').toString("base64url"), Buffer.from('{"seq":1e309}').toString("base64url"),
  Buffer.from("[]").toString("base64url"), Buffer.from("null").toString("base64url"), Buffer.from(`{"created_at":"not a date","id":"x"}`).toString("base64url"),
  "A".repeat(4096), "%00", "%ff%fe", "..%2F..%2F", "MTIz", "MTIzOjQ1Ng", Buffer.from("2026-01-01T00:00:00Z|00000000-0000-0000-0000-000000000000").toString("base64url"),
];

const BAD_PATH_SEGMENTS = ["x", "0", "-1", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "%E0%A4%A", "%00", "%2e%2e", "%2F", "..", ".", "a".repeat(1500), "null", "%ZZ", "😀", "%F0%9F%98%80", "{id}"];

const CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/json; charset=utf-16", "application/json; charset=utf-8", "application/json;;;", "application/vnd.api+json", "application/xml", "*/*", ""];
const ENCODINGS = ["gzip", "deflate", "br", "x-gzip", "compress", "zstd", "identity", "gzip, gzip", "gzip, br", "GZIP", " gzip ", "unknown"];

/** A value the schema accepts, or as near as the sampler gets: the body the mutations start from. */
export function sampleOf(schema: JsonSchema, random: Random): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return random.pick(schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return sampleOf(random.pick(alternatives), random);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s, random) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleOf(property, random)]));
    case "array":
      return schema.items ? [sampleOf(schema.items, random)] : [];
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return random.chance(0.5);
    default:
      if (schema.pattern?.includes("0-9a-fA-F]{40}")) return "0x" + hex(random, 40);
      if (schema.pattern?.includes("0-9a-fA-F]{64}")) return "0x" + hex(random, 64);
      if (schema.pattern?.startsWith("^[0-9]+")) return String(random.int(1, 1_000_000));
      if (schema.format === "uri") return "https://example.com/hooks/sweep";
      if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
  }
}

const hex = (random: Random, digits: number) => Array.from({ length: digits }, () => "0123456789abcdef"[random.int(0, 15)]).join("");
const bytes = (random: Random, n: number) => Buffer.from(Array.from({ length: n }, () => random.int(0, 255)));

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Paths to every field of the body, nested ones too. */
export function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...fieldPaths(child, [...prefix, key])]);
}

/** Paths to the body's objects, the body itself first. */
export function objectPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!isObject(value)) return [];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => objectPaths(child, [...prefix, key]))];
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, target);
  parent[path[path.length - 1]!] = value;
}

const jsonBody = (draft: Draft, text: string | Buffer) => {
  draft.body = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  draft.headers["content-type"] ??= "application/json";
};

/** A JSON text of exactly `size` bytes: the base body with a padded unknown field, or a padded string. */
function sizedJson(base: unknown, size: number): string {
  const shell = JSON.stringify(isObject(base) ? { ...base, padding: "" } : { padding: "" });
  return shell.replace('"padding":""', `"padding":"${"p".repeat(Math.max(0, size - shell.length))}"`);
}

/** Each changes one thing; `spoilsBody` marks those the spec answers 400 invalid_json on an operation that takes a body. */
const MUTATIONS: Record<string, { applies: (op: Operation) => boolean; spoilsBody?: boolean; mutate: Mutation }> = {
  "odd method": {
    applies: () => true,
    mutate: (random, draft) => {
      draft.method = random.pick(ODD_METHODS);
    },
  },
  "bad path parameter": {
    applies: (op) => op.pathParams.length > 0,
    mutate: (random, draft) => {
      draft.path = draft.operation.path.replace(/\{[^}]+\}/g, () => random.pick(BAD_PATH_SEGMENTS));
    },
  },
  "odd path": {
    applies: () => true,
    mutate: (random, draft) => {
      const odd = random.pick<(p: string) => string>([(p) => `${p}/`, (p) => p.replace("/v1/", "/v1//"), (p) => p.toUpperCase(), (p) => `${p}/extra`, (p) => `${p}%00`, (p) => `${p};x=1`, (p) => `${p}/..%2F..%2F`, (p) => p.replace("/v1", "/v2"), (p) => `${p}%E0%A4%A`, (p) => `/${p}`]);
      draft.path = odd(draft.path);
    },
  },
  "bad query value": {
    applies: (op) => op.query.length > 0,
    mutate: (random, draft) => {
      const param = random.pick(draft.operation.query);
      draft.query.push([param.name, param.name === "cursor" ? random.pick(BAD_CURSORS) : random.pick(BAD_QUERY_VALUES)]);
    },
  },
  "repeated query parameter": {
    applies: (op) => op.query.length > 0,
    mutate: (random, draft) => {
      const { name } = random.pick(draft.operation.query);
      for (let i = random.int(2, 4); i > 0; i--) draft.query.push([name, String(random.int(1, 60))]);
    },
  },
  "query parameter as object or array": {
    applies: () => true,
    mutate: (random, draft) => {
      const name = draft.operation.query.length > 0 ? random.pick(draft.operation.query).name : "limit";
      draft.query.push([random.pick([`${name}[]`, `${name}[a]`, `${name}[__proto__]`, `${name}[0][1]`, `${name}.x`, "__proto__[x]", "constructor[prototype][x]"]), random.pick(["1", "x", ""])]);
    },
  },
  "unknown or raw query": {
    applies: () => true,
    mutate: (random, draft) => {
      draft.rawQuery = random.pick(["?", "?&&&", "?=", "?==x", "?a", "?limit", "?%", "?%zz=1", `?${"a=1&".repeat(1000)}`, "?cursor=%ff%fe", "?limit=1#frag", `?unknown=${"u".repeat(200)}`, "?chain_id=11155111&chain_id=97"]);
    },
  },
  "bad JSON": {
    applies: (op) => op.body !== undefined,
    spoilsBody: true,
    mutate: (random, draft) => jsonBody(draft, random.pick(BAD_JSON)),
  },
  "non-UTF-8 body": {
    applies: (op) => op.body !== undefined,
    spoilsBody: true,
    mutate: (random, draft) => jsonBody(draft, Buffer.concat([Buffer.from('{"a":"'), bytes(random, random.int(1, 40)).map((b) => b | 0x80), Buffer.from('"}')])),
  },
  "wrong type": {
    applies: (op) => op.body !== undefined,
    mutate: (random, draft) => {
      const base = sampleOf(draft.operation.body!, random) as Record<string, unknown>;
      const paths = fieldPaths(base);
      if (paths.length > 0) setAt(base, random.pick(paths), random.pick(ODD_VALUES));
      jsonBody(draft, JSON.stringify(base));
    },
  },
  "extreme number literal": {
    applies: (op) => op.body !== undefined,
    mutate: (random, draft) => {
      const base = sampleOf(draft.operation.body!, random) as Record<string, unknown>;
      const paths = fieldPaths(base);
      if (paths.length > 0) setAt(base, random.pick(paths), RAW_NUMBER);
      // Literals no JavaScript number writes: beyond float64, negative zero, 30 digits, exponents.
      jsonBody(draft, JSON.stringify(base).replace(JSON.stringify(RAW_NUMBER), random.pick(EXTREME_NUMBERS)));
    },
  },
  "missing field": {
    applies: (op) => op.body !== undefined,
    mutate: (random, draft) => {
      const base = sampleOf(draft.operation.body!, random) as Record<string, unknown>;
      const paths = fieldPaths(base);
      if (paths.length > 0) {
        const path = random.pick(paths);
        const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, base);
        delete parent[path[path.length - 1]!];
      }
      jsonBody(draft, JSON.stringify(base));
    },
  },
  "unknown field": {
    applies: (op) => op.body !== undefined,
    spoilsBody: true,
    mutate: (random, draft) => {
      const base = sampleOf(draft.operation.body!, random) as Record<string, unknown>;
      const path = random.pick(objectPaths(base));
      const container = path.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, base);
      container[random.pick(["unknown", "Chain_Id", "extra_field", "id", "status", "partner_id", "0", "😀"])] = random.pick(ODD_VALUES);
      jsonBody(draft, JSON.stringify(base));
    },
  },
  "body at or over 64 KiB": {
    applies: (op) => op.body !== undefined,
    spoilsBody: true,
    mutate: (random, draft) => {
      const size = random.pick([MAX_BODY_BYTES - 1, MAX_BODY_BYTES, MAX_BODY_BYTES + 1, MAX_BODY_BYTES * 4, 1024 * 1024]);
      // An unknown field pads it: any size is an error, the over-limit ones for the size.
      jsonBody(draft, sizedJson(sampleOf(draft.operation.body!, random), size));
      draft.mutations.push(`${size} bytes`);
    },
  },
  "deep nesting": {
    applies: (op) => op.body !== undefined,
    spoilsBody: true,
    mutate: (random, draft) => {
      const depth = random.pick([100, 1_000, 10_000, 30_000]);
      jsonBody(draft, `{"x":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    },
  },
  "garbage Content-Encoding": {
    applies: () => true,
    spoilsBody: true,
    mutate: (random, draft) => {
      draft.headers["content-encoding"] = random.pick(ENCODINGS);
      draft.headers["content-type"] = "application/json";
      // Never a valid coding of valid JSON: whatever the coding, the body is not JSON the spec accepts.
      draft.body = random.pick([() => bytes(random, random.int(1, 512)), () => Buffer.from('{"not":"compressed"}'), () => gzipSync(Buffer.from('{"a":1}')).subarray(0, 12)])();
    },
  },
  "compressed body": {
    applies: (op) => op.body !== undefined,
    mutate: (random, draft) => {
      const [name, compress] = random.pick<[string, (b: Buffer) => Buffer]>([["gzip", gzipSync], ["deflate", deflateSync], ["br", brotliCompressSync]]);
      // A bomb: 1 MiB of spaces inside a JSON string, a few KiB compressed.
      const bomb = random.chance(0.5);
      const json = bomb ? `{"a":"${" ".repeat(1024 * 1024)}"}` : JSON.stringify(sampleOf(draft.operation.body!, random));
      draft.headers["content-encoding"] = name;
      jsonBody(draft, compress(Buffer.from(json)));
      draft.mutations.push(bomb ? `${name} bomb` : name);
      if (bomb) draft.mutations.push("over 64 KiB inflated");
    },
  },
  "odd Content-Type": {
    applies: () => true,
    mutate: (random, draft) => {
      const type = random.pick(CONTENT_TYPES);
      if (type === "") delete draft.headers["content-type"];
      else draft.headers["content-type"] = type;
      if (draft.body === undefined) draft.body = Buffer.from(random.pick(["{}", "a=1&b=2", "<x/>", "\u00ff\u00fe{"]), "latin1");
    },
  },
  "body where none is taken": {
    applies: (op) => op.body === undefined,
    mutate: (random, draft) => jsonBody(draft, random.pick(["{}", '{"a":1}', "{", "x".repeat(70_000)])),
  },
  "odd headers": {
    applies: () => true,
    mutate: (random, draft) => {
      const [name, value] = random.pick<[string, string | string[]]>([
        ["accept", "text/html"],
        ["accept", "application/xml;q=1, */*;q=0"],
        ["accept-charset", "utf-16"],
        ["x-request-id", "r".repeat(2000)],
        ["x-request-id", "\u00ff\u00fe bad id"],
        ["x-request-id", ""],
        ["x-forwarded-for", "1.2.3.4, ::1, garbage"],
        ["x-forwarded-for", "garbage"],
        ["x-forwarded-for", "2001:db8::1"],
        ["x-forwarded-for", "[::1]:80, 300.1.1.1, "],
        ["x-forwarded-for", ",,,"],
        ["x-forwarded-for", "1.2.3.4".repeat(500)],
        ["x-forwarded-for", ["1.1.1.1", "2.2.2.2"]],
        ["forwarded", "for=\"[2001:db8::1]\";proto=https"],
        ["x-forwarded-proto", "gopher"],
        ["x-http-method-override", "DELETE"],
        ["cookie", "a=" + "c".repeat(2000)],
        ["if-none-match", "*"],
        ["transfer-encoding", "chunked"],
        ["range", "bytes=0-0,-1"],
        ["te", "trailers, deflate"],
        ["accept-encoding", "gzip;q=2, br;q=-1, *"],
        ["origin", "https://evil.example"],
        ["access-control-request-method", "DELETE"],
        ["x-odd-" + "h".repeat(200), "v"],
      ]);
      draft.headers[name] = value;
    },
  },
  "odd Authorization": {
    applies: () => true,
    mutate: (random, draft) => {
      draft.auth = "malformed";
      draft.headers.authorization = random.pick<string | string[]>([
        "Bearer",
        "Bearer ",
        "Bearer  svc_test_",
        "bearer svc_test_x",
        "Basic dXNlcjpwYXNz",
        "Token svc_test_abc",
        `Bearer svc_test_${"k".repeat(3000)}`,
        "Bearer svc_test_\u00ff\u00fe",
        "Bearer svc_test_' OR 1=1 --",
        ["Bearer svc_test_a", "Bearer svc_test_b"],
        "Bearer svc_test_%00",
      ]);
    },
  },
};

const AUTH_KINDS: Array<[AuthKind, number]> = [["valid", 0.7], ["none", 0.08], ["unknown", 0.08], ["live", 0.04], ["disabled", 0.05], ["malformed", 0.05]];

function authHeader(kind: AuthKind, keys: FuzzKeys, random: Random): string | undefined {
  switch (kind) {
    case "valid":
      return `Bearer ${keys.valid}`;
    case "disabled":
      return `Bearer ${keys.disabled}`;
    case "unknown":
      return `Bearer ${keys.valid.slice(0, "svc_test_".length)}${hex(random, keys.valid.length - "svc_test_".length)}`;
    case "live":
      return `Bearer svc_live_${hex(random, 40)}`;
    case "malformed":
      return "Bearer not-a-key";
    case "none":
      return undefined;
  }
}

/** One malformed request on one of the operations: one to three mutations, with or without a valid key. */
export function fuzzRequest(random: Random, operations: readonly Operation[], keys: FuzzKeys): FuzzRequest {
  const operation = random.pick(operations);
  const roll = random.next();
  let sum = 0;
  const auth = AUTH_KINDS.find(([, p]) => (sum += p) > roll)?.[0] ?? "valid";
  const draft: Draft = { operation, method: operation.method, path: operation.path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000"), query: [], headers: {}, auth, mutations: [] };
  const header = authHeader(auth, keys, random);
  if (header !== undefined) draft.headers.authorization = header;
  if (operation.body) jsonBody(draft, JSON.stringify(sampleOf(operation.body, random)));

  const applicable = Object.entries(MUTATIONS).filter(([, m]) => m.applies(operation));
  const count = random.pick([1, 1, 1, 2, 3]);
  let spoilsBody = false;
  for (let i = 0; i < count; i++) {
    const [name, mutation] = random.pick(applicable);
    draft.mutations.push(name);
    mutation.mutate(random, draft);
    spoilsBody ||= mutation.spoilsBody === true || draft.mutations.includes("over 64 KiB inflated");
  }
  // The spec's answer is certain only when nothing else about the request can come first: one
  // mutation, of the body, with a valid key, on an operation that takes a body.
  if (spoilsBody && count === 1 && auth === "valid" && operation.body !== undefined) draft.expect = { status: 400, code: "invalid_json" };

  const documented = operations.filter((o) => o.path === operation.path).map((o) => o.method);
  const undocumented = !documented.includes(draft.method) && !(draft.method === "HEAD" && documented.includes("GET"));

  const query = draft.rawQuery ?? (draft.query.length > 0 ? `?${draft.query.map(([k, v]) => `${encodeURIComponentLoosely(k)}=${encodeURIComponentLoosely(v)}`).join("&")}` : "");
  const { operation: _operation, path, query: _query, rawQuery: _rawQuery, ...request } = draft;
  return { ...request, undocumented, target: sendable(path + query) };
}

/** Percent-encodes what an HTTP request line cannot carry (spaces, controls, non-ASCII), byte by byte. */
function sendable(target: string): string {
  return target.replace(/[^\x21-\x7e]/gu, (c) => [...Buffer.from(c, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""));
}

/** Encodes what a URL cannot carry but keeps %-sequences as written, so bad percent-encoding reaches the server. */
function encodeURIComponentLoosely(text: string): string {
  return text.replace(/[^A-Za-z0-9\-._~%[\]]/g, (c) => encodeURIComponent(c));
}
