import http from "node:http";
import type { AddressInfo } from "node:net";

/** How long a connection may take over each part of its life; without them a few slow clients hold sockets for ever. */
export interface ServerTimeouts {
  /** from the connection's (or a keep-alive request's) start until the request's headers are in */
  headersTimeout: number;
  /** until the whole request, body included, is in */
  requestTimeout: number;
  /** how long an idle keep-alive connection waits for its next request */
  keepAliveTimeout: number;
  /** how often the first two are checked (Node's default, 30 s, would let them overrun by that much) */
  connectionsCheckingInterval?: number;
}

/**
 * Listens and resolves once bound, or rejects (e.g. the port is taken) instead of crashing later.
 * `exclusive`: a cluster worker binds the port itself instead of sharing its primary's (a worker's own
 * management port).
 */
export function listen(handler: http.RequestListener, port: number, host: string, timeouts?: ServerTimeouts, { exclusive = false }: { exclusive?: boolean } = {}): Promise<http.Server> {
  const server = timeouts
    ? http.createServer(
        {
          // Node refuses a headers timeout above the request's.
          headersTimeout: Math.min(timeouts.headersTimeout, timeouts.requestTimeout),
          requestTimeout: timeouts.requestTimeout,
          keepAliveTimeout: timeouts.keepAliveTimeout,
          connectionsCheckingInterval: timeouts.connectionsCheckingInterval ?? 1_000,
        },
        handler,
      )
    : http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, exclusive }, () => resolve(server));
  });
}

/**
 * Where a listening server answers, e.g. http://127.0.0.1:43121: the port it was given, or the one the
 * system picked for port 0 (the tests' stacks start services on port 0 and read the port off this).
 */
export function serverUrl(server: http.Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  return `http://${family === "IPv6" ? `[${address}]` : address}:${port}`;
}

/** Stops accepting connections and waits for open requests, closing idle keep-alive sockets. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeIdleConnections();
  });
}
