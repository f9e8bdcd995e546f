import { request as httpRequest } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { attemptErrorOf, type AttemptError } from "./attempt-errors";
import type { Destination } from "./destination";

export type PostResult = { statusCode: number } | { error: AttemptError };

/**
 * POSTs the body to the destination's checked address, over TLS verified for its host name (plain
 * http only where the destination allows it, in local development), and settles on the answer's
 * status (the body is ignored) or the error. A redirect is an answer like any other: node's
 * requests never follow one. No connection pool: every attempt connects anew, to the address its
 * own lookup checked.
 */
export function postWebhook(destination: Destination, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostResult> {
  const { address, family } = destination.address;
  // Answers the connection's own lookup with the checked address, so a second DNS answer cannot move it.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const tls = destination.protocol === "https:";
  const options: RequestOptions = {
    method: "POST",
    host: destination.hostname,
    port: destination.port,
    path: destination.path,
    headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
    lookup: pinned,
    // SNI takes a host name only; an IP literal host is verified against the certificate's IP names.
    ...(tls && !isIP(destination.hostname) ? { servername: destination.hostname } : {}),
    agent: false,
    signal,
  };
  return new Promise<PostResult>((resolve) => {
    const req = (tls ? httpsRequest : httpRequest)(options, (res) => {
      resolve({ statusCode: res.statusCode ?? 0 });
      res.resume();
      res.on("error", () => undefined);
      // The answer is in; what is left of its body is not read.
      req.destroy();
    });
    req.on("error", (err) => resolve({ error: attemptErrorOf(signal.aborted ? signal.reason : err) }));
    req.end(body);
  });
}
