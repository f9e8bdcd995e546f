import type http from "node:http";
import { listen } from "./http-server";

/**
 * A minimal HTTP server for the services without a public API: GET /healthz answers 204
 * while `isHealthy` holds, 503 otherwise. Returns the server so shutdown can close it.
 */
export function startHealthServer(port: number, isHealthy: () => boolean = () => true, host = "127.0.0.1"): Promise<http.Server> {
  return listen((req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      res.statusCode = isHealthy() ? 204 : 503;
      res.end();
      return;
    }
    res.statusCode = 404;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ error: { code: "not_found", message: "no such path" } }));
  }, port, host);
}
