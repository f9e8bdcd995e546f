import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { createTestPartner, startTestGateway, type TestGateway } from "./support";

// Counts the decoders body-parser makes (zlib's exports are read-only, so spyOn cannot wrap them).
jest.mock("node:zlib", () => {
  const actual = jest.requireActual<typeof import("node:zlib")>("node:zlib");
  return { ...actual, createGunzip: jest.fn(actual.createGunzip) };
});

const json = Buffer.from(JSON.stringify({ external_id: "x" }));
/** 16 MiB of zeros deflate to about 16 KiB: a bomb that would cost memory and time if inflated. */
const bomb = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024));

describe("request bodies' Content-Encoding", () => {
  let gateway: TestGateway;
  let server: http.Server;
  let auth: { Authorization: string };
  beforeAll(async () => {
    gateway = await startTestGateway();
    auth = (await createTestPartner(gateway.db)).auth;
    server = await new Promise((resolve) => {
      const s = http.createServer(gateway.app).listen(0, "127.0.0.1", () => resolve(s));
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await gateway.close();
  });

  /** Raw bytes as sent (supertest re-serialises a Buffer given with a JSON content type). */
  const send = (path: string, encoding: string | undefined, body: Buffer, headers: Record<string, string>, contentType = "application/json") =>
    new Promise<{ status: number; body: { error?: { code: string; message: string } } }>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port: (server.address() as AddressInfo).port, path, method: "POST", headers: { ...headers, "content-type": contentType, ...(encoding === undefined ? {} : { "content-encoding": encoding }), "content-length": body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || "{}") }));
        },
      );
      // The server may answer (401) before taking the whole body and close: that is the point.
      req.on("error", reject);
      req.end(body);
    });
  const post = (encoding: string, body: Buffer, headers: Record<string, string> = auth) => send("/v1/sweeps", encoding, body, headers);

  // Plain `application/json` is read by the gateway (json-body.ts); the same bytes with an upper-case
  // charset go through body-parser: both must answer alike.
  it.each<[string, Buffer]>([
    ["a sweep's fields", Buffer.from(JSON.stringify({ chain_id: 97, account: "0x0000000000000000000000000000000000000001" }))],
    ["an object after whitespace", Buffer.from(` \n\t{"chain_id": 1}`)],
    ["a byte order mark before the object", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json])],
    ["invalid JSON", Buffer.from(`{"chain_id": 1,`)],
    ["a number", Buffer.from("123")],
    ["a string", Buffer.from(`"text"`)],
    ["null", Buffer.from("null")],
    ["an array", Buffer.from("[1, 2]")],
    ["an empty body", Buffer.alloc(0)],
    ["a body of exactly 64 KiB", Buffer.from(JSON.stringify({ external_id: "x".repeat(64 * 1024 - 18) }))],
    ["a body one byte over 64 KiB", Buffer.from(JSON.stringify({ external_id: "x".repeat(64 * 1024 - 17) }))],
    ["invalid UTF-8 inside a string", Buffer.concat([Buffer.from(`{"external_id": "`), Buffer.from([0xc3, 0x28]), Buffer.from(`"}`)])],
  ])("answers %s in plain application/json as body-parser does", async (_, body) => {
    const plain = await send("/v1/sweeps", undefined, body, auth);
    const parsed = await send("/v1/sweeps", undefined, body, auth, "application/json; charset=UTF-8");
    expect(plain).toEqual(parsed);
    expect(plain.status).toBeGreaterThanOrEqual(400);
  });

  it("reads a chunked plain JSON body (no Content-Length) through body-parser, answering as for the same body in one piece", async () => {
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, path: "/v1/sweeps", method: "POST", headers: { ...auth, "content-type": "application/json" } }, (r) => {
        const chunks: Buffer[] = [];
        r.on("data", (chunk: Buffer) => chunks.push(chunk));
        r.on("end", () => resolve({ status: r.statusCode!, body: Buffer.concat(chunks).toString() }));
      });
      req.on("error", reject);
      req.write(json.subarray(0, 5));
      req.end(json.subarray(5));
    });
    const whole = await send("/v1/sweeps", undefined, json, auth);
    expect({ status: chunked.status, body: JSON.parse(chunked.body) }).toEqual(whole);
    // The route's own checks answer (a missing field), not the body's reading.
    expect(whole.body.error?.message).not.toMatch(/^request body/);
  });

  it.each([
    ["gzip garbage", "gzip", Buffer.from("not gzip at all")],
    ["deflate garbage", "deflate", Buffer.from("not deflate either")],
    ["br garbage", "br", Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01])],
    ["a truncated gzip stream", "gzip", zlib.gzipSync(json).subarray(0, 12)],
    ["an unknown encoding", "compress", json],
    ["zstd (not accepted on any Node version)", "zstd", json],
    ["two codings", "gzip, gzip", zlib.gzipSync(zlib.gzipSync(json))],
    ["a gzip bomb over 64 KiB inflated", "gzip", bomb],
  ])("refuses %s with 400 invalid_json in the spec's shape", async (_what, encoding, body) => {
    const res = await post(encoding, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_json", message: expect.any(String) } });
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
    ["GZIP", zlib.gzipSync],
  ] as const)("reads a valid %s body like a plain one (the route's own checks answer)", async (encoding, compress) => {
    const res = await post(encoding, compress(json));
    // Parsed, then refused by the sweep schema for its missing fields: not a decoding error.
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/is required$/);
  });

  it("holds the 64 KiB limit on the inflated size", async () => {
    const res = await post("gzip", zlib.gzipSync(JSON.stringify({ pad: "x".repeat(65 * 1024) })));
    expect(res.body).toEqual({ error: { code: "invalid_json", message: "request body is over 64 KiB" } });
    expect((await post("gzip", bomb)).body.error?.message).toBe("request body is over 64 KiB");
  });

  it("answers a bad key with a gzip bomb 401, without inflating anything, on any path", async () => {
    const gunzip = zlib.createGunzip as jest.Mock;
    gunzip.mockClear();
    {
      const badKey = { Authorization: "Bearer svc_test_nope" };
      expect((await post("gzip", bomb, badKey)).status).toBe(401);
      expect((await post("gzip", bomb, {})).status).toBe(401);
      for (const path of ["/nothing", "/healthz", "/v1/openapi.yaml"]) {
        const res = await send(path, "gzip", bomb, {});
        expect([path, res.status]).toEqual([path, path.startsWith("/v1") ? 401 : 404]);
      }
      expect(gunzip).not.toHaveBeenCalled();
    }
    // The counter works: the same bomb with the key is inflated (up to the limit).
    expect((await post("gzip", bomb)).status).toBe(400);
    expect(gunzip).toHaveBeenCalledTimes(1);
  });
});
