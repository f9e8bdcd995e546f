import type http from "node:http";
import { collectProcessMetrics, scrapeMetrics } from "@sweep/metrics";
import { listen, serverUrl } from "./http-server";

/**
 * A minimal HTTP server for what operators and the platform ask a process: GET /healthz answers
 * 204 while `isHealthy` holds, 503 otherwise; GET /metrics the process's Prometheus metrics. The
 * services without a public API serve it on HEALTH_PORT, the api-gateway on METRICS_PORT.
 * Returns the server so shutdown can close it.
 */
export function startHealthServer(port: number, isHealthy: () => boolean = () => true, host = "127.0.0.1", { exclusive = false }: { exclusive?: boolean } = {}): Promise<http.Server> {
  collectProcessMetrics();
  return listen((req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      res.statusCode = isHealthy() ? 204 : 503;
      res.end();
      return;
    }
    if (req.method === "GET" && req.url === "/metrics") {
      void serveMetrics(res);
      return;
    }
    res.statusCode = 404;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ error: { code: "not_found", message: "no such path" } }));
  }, port, host, undefined, { exclusive });
}

/** Where a health server answers /healthz and /metrics, for a service's "listening" line. */
export function healthUrls(server: http.Server): { health: string; metrics: string } {
  const health = serverUrl(server);
  return { health, metrics: `${health}/metrics` };
}

async function serveMetrics(res: http.ServerResponse): Promise<void> {
  try {
    const { contentType, body } = await scrapeMetrics();
    res.setHeader("content-type", contentType);
    res.end(body);
  } catch (err) {
    res.statusCode = 500;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.end(`metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
