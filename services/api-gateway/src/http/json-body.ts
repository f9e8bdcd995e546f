import { ApiError } from "./api-error";
import express, { type Request, type RequestHandler } from "express";

/** The spec's request body limit: larger bodies are 400 invalid_json. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Routes whose bodies may be larger: POST /v1/deposit-addresses takes 1,000 addresses with their
 * authorizations, some 300 KiB (docs/decisions.md).
 */
export const LARGER_BODIES: Readonly<Record<string, number>> = { "POST /v1/deposit-addresses": 512 * 1024 };

/**
 * The content codings a body may come in. body-parser counts its limit on the decoded bytes, so a
 * compressed body is held to 64 KiB once inflated (a bomb stops there). zstd is left out: whether
 * body-parser decodes it depends on the Node version, and the answer must not.
 */
const ACCEPTED_ENCODINGS = new Set(["identity", "gzip", "deflate", "br"]);

/** Requests whose body arrived empty: body-parser makes `{}` of those, which is not what was sent. */
const emptyBodies = new WeakSet<object>();

const jsonParser = (limit: number) =>
  express.json({
    limit,
    strict: true,
    type: ["application/json", "application/*+json"],
    verify: (req, _res, raw) => {
      if (raw.length === 0) emptyBodies.add(req);
    },
  });

const parsers = new Map([MAX_BODY_BYTES, ...Object.values(LARGER_BODIES)].map((limit) => [limit, jsonParser(limit)]));

/** Body-parser failures carry a `type`; each becomes invalid_json with a message a person can act on. */
export function bodyError(err: { type?: string }, limit = MAX_BODY_BYTES): ApiError {
  switch (err.type) {
    case "entity.too.large":
      return new ApiError("invalid_json", `request body is over ${limit / 1024} KiB`);
    case "entity.parse.failed":
      return new ApiError("invalid_json", "request body is not valid JSON");
    case "charset.unsupported":
      return new ApiError("invalid_json", "request body must be UTF-8 JSON");
    case "request.aborted":
    case "request.size.invalid":
      return new ApiError("invalid_json", "request body was cut short");
    default:
      // A decoder's error (corrupt gzip, deflate or br data) has no type of body-parser's.
      return new ApiError("invalid_json", "request body could not be decoded as its Content-Encoding says");
  }
}

/**
 * Parses JSON bodies of any content type that claims JSON; a body with another content type is
 * left unparsed and then refused by the route's schema as invalid_json. Mounted after
 * authentication, so nothing is read or inflated for a request without a valid key.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const encoding = (req.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (!ACCEPTED_ENCODINGS.has(encoding)) {
    next(new ApiError("invalid_json", `Content-Encoding ${encoding.slice(0, 40)} is not supported; send identity, gzip, deflate or br`));
    return;
  }
  // As express routes it: any letter case, a trailing slash allowed.
  const route = `${req.method} ${`${req.baseUrl}${req.path}`.toLowerCase().replace(/\/+$/, "")}`;
  const limit = LARGER_BODIES[route] ?? MAX_BODY_BYTES;
  const parsed = (err?: unknown) => {
    if (err) return next(bodyError(err as { type?: string }, limit));
    // An empty body is no body (no JSON at all), as without a Content-Type: a route that needs an object refuses it.
    if (emptyBodies.has(req)) req.body = undefined;
    next();
  };
  if (isPlainJson(req, encoding)) readPlainJson(req, limit, parsed);
  else parsers.get(limit)!(req, res, parsed);
};

/**
 * The body nearly every request sends: identity coding, `application/json` in UTF-8, its length
 * given. It is read here at about a third of body-parser's cost per request (measured, issue 28:
 * its content-type, charset and decoder-stream work); every other body goes through body-parser.
 */
function isPlainJson(req: Request, encoding: string): boolean {
  const type = req.headers["content-type"];
  return encoding === "identity" && (type === "application/json" || type === "application/json; charset=utf-8") && req.headers["content-length"] !== undefined;
}

/** The first character JSON.parse would see, past the whitespace JSON allows: body-parser's `strict` takes objects and arrays only. */
const FIRST_CHARACTER = /^[ \t\n\r]*([^ \t\n\r])/;

/** As body-parser reads a body, with the same error `type`s (bodyError), and after the whole request arrived. */
function readPlainJson(req: Request, limit: number, done: (err?: { type: string }) => void): void {
  const declared = Number(req.headers["content-length"]);
  let settled = false;
  const settle = (err?: { type: string }) => {
    if (settled) return;
    settled = true;
    done(err);
  };
  if (declared > limit) {
    // Read to its end first, as body-parser does, so the answer does not race the rest of the body.
    req.resume();
    req.once("end", () => settle({ type: "entity.too.large" }));
    req.once("close", () => settle({ type: "entity.too.large" }));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  req.on("data", (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  });
  req.once("end", () => {
    if (received !== declared) return settle({ type: "request.size.invalid" });
    if (received === 0) {
      emptyBodies.add(req);
      return settle();
    }
    // iconv-lite's UTF-8 decoder, body-parser's, drops a byte order mark.
    const text = Buffer.concat(chunks, received).toString("utf8").replace(/^\uFEFF/, "");
    const first = FIRST_CHARACTER.exec(text)?.[1];
    if (first !== "{" && first !== "[") return settle({ type: "entity.parse.failed" });
    try {
      req.body = JSON.parse(text);
    } catch {
      return settle({ type: "entity.parse.failed" });
    }
    settle();
  });
  req.once("close", () => {
    if (!req.complete) settle({ type: "request.aborted" });
  });
}
