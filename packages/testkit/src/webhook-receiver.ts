/**
 * A webhook receiver as a partner would run one: HTTPS with a certificate of a CA made for the
 * test (by the openssl binary), verifying every delivery's signature with its own HMAC code; or
 * plain http, as a developer's own receiver in local development.
 */
import { execFileSync } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCertificates {
  /** the CA's certificate, for NODE_EXTRA_CA_CERTS */
  caPath: string;
  key: Buffer;
  cert: Buffer;
  remove(): void;
}

/** A CA and a server certificate it signed for 127.0.0.1 and localhost. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), "webhook-receiver-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", file("ca.key"), "-out", file("ca.pem"), "-days", "1", "-subj", "/CN=webhook test CA");
  openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost");
  writeFileSync(file("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  openssl("x509", "-req", "-in", file("server.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial", "-out", file("server.pem"), "-days", "1", "-extfile", file("san.ext"));
  return { caPath: file("ca.pem"), key: readFileSync(file("server.key")), cert: readFileSync(file("server.pem")), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ReceivedDelivery {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** the signature checked against the secret of the path's webhook, and its t within 5 minutes */
  verified: boolean;
  at: number;
}

/** Answers the n-th request (from 1) to its path; leaving `res` unanswered holds the connection. */
export type Responder = (res: ServerResponse, n: number) => void;

export interface Receiver {
  url(webhookPath: string): string;
  /** the secret deliveries to this path are signed with, and how they are answered */
  route(webhookPath: string, secret: string, responder: Responder): void;
  received(webhookPath: string): ReceivedDelivery[];
  close(): Promise<void>;
}

export function verifySignature(header: string | undefined, secret: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  // `t=<seconds>,v1=<hex>`, and a second v1 while a rotated secret's overlap lasts: either may match.
  const [timestamp, ...signatures] = (header ?? "").split(",");
  const t = /^t=(\d+)$/.exec(timestamp ?? "")?.[1];
  const v1s = signatures.map((part) => /^v1=([0-9a-f]{64})$/.exec(part)?.[1]);
  if (t === undefined || v1s.length === 0 || v1s.some((v1) => v1 === undefined)) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return Math.abs(nowSeconds - Number(t)) <= 300 && v1s.some((v1) => timingSafeEqual(expected, Buffer.from(v1!, "hex")));
}

/** Over https with these certificates; without them, over plain http. */
export async function startReceiver(certificates?: TestCertificates): Promise<Receiver> {
  const routes = new Map<string, { secret: string; responder: Responder; received: ReceivedDelivery[] }>();
  const listener: RequestListener = (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const route = routes.get(req.url ?? "");
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      route.received.push({ path: req.url!, headers: req.headers, body, verified: verifySignature(req.headers["service-signature"] as string | undefined, route.secret, body), at: Date.now() });
      route.responder(res, route.received.length);
    });
  };
  const server: Server = certificates ? createHttpsServer({ key: certificates.key, cert: certificates.cert }, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = certificates ? "https" : "http";
  return {
    url: (webhookPath) => `${scheme}://127.0.0.1:${port}${webhookPath}`,
    route: (webhookPath, secret, responder) => routes.set(webhookPath, { secret, responder, received: [] }),
    received: (webhookPath) => routes.get(webhookPath)?.received ?? [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
