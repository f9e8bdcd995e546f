import http from "node:http";

/** Listens and resolves once bound, or rejects (e.g. the port is taken) instead of crashing later. */
export function listen(handler: http.RequestListener, port: number, host: string): Promise<http.Server> {
  const server = http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** Stops accepting connections and waits for open requests, closing idle keep-alive sockets. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeIdleConnections();
  });
}
