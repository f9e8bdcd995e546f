import cluster, { type Worker } from "node:cluster";
import { closeServer, healthUrls, startHealthServer, type Closer, type Logger } from "@sweep/common";
import type { GatewayConfig } from "./config";

/**
 * GATEWAY_WORKERS > 1: a primary runs that many gateways as Node cluster workers on one machine, so
 * the API uses every core. They share PORT (the primary hands out the connections); each has its own
 * management port, /healthz and /metrics per process, at METRICS_PORT + its number. The primary
 * restarts a worker that dies, and stops them all on SIGTERM.
 */

const WORKER_INDEX = "GATEWAY_WORKER_INDEX";

/** A worker's number (1…N, kept across its restarts), or undefined in a gateway that runs alone. */
export function workerIndex(): number | undefined {
  return cluster.isWorker ? Number(process.env[WORKER_INDEX]) : undefined;
}

interface Ready {
  type: "gateway-ready";
  url: string;
  metrics: string;
}

/** A worker tells its primary where it listens; it stops when its primary is gone (its connections went with it). */
export function workerReady(logger: Logger, where: { url: string; metrics: string }): void {
  logger.info("worker listening", { worker: workerIndex(), pid: process.pid, ...where });
  process.send?.({ type: "gateway-ready", ...where } satisfies Ready);
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}

/** A worker that died is started again after this: one that cannot start does not spin. */
const RESTART_DELAY_MS = 1_000;
/** What a worker gets to finish its requests at shutdown before it is killed (within the service's 10 s). */
const WORKER_STOP_MS = 8_000;

export async function superviseWorkers(config: GatewayConfig, logger: Logger): Promise<Closer[]> {
  const count = config.GATEWAY_WORKERS;
  const running = new Map<number, Worker>();
  let stopping = false;

  /** Starts worker `index`; resolves with where it listens once it is ready, rejects if it dies before. */
  const start = (index: number): Promise<Ready> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [WORKER_INDEX]: String(index) });
      running.set(index, worker);
      let ready = false;
      worker.on("message", (message: Ready) => {
        if (message?.type !== "gateway-ready") return;
        ready = true;
        resolve(message);
      });
      worker.once("exit", (code, signal) => {
        if (running.get(index) === worker) running.delete(index);
        if (!ready) return reject(new Error(`gateway worker ${index} exited (${signal ?? code}) before it listened`));
        if (stopping) return;
        logger.error("gateway worker died; starting another", { worker: index, pid: worker.process.pid, code, signal });
        setTimeout(() => void start(index).catch((err: unknown) => logger.error("gateway worker did not start again", { worker: index, err: String(err) })), RESTART_DELAY_MS);
      });
    });

  const stop = async () => {
    stopping = true;
    await Promise.all(
      [...running.values()].map(
        (worker) =>
          new Promise<void>((resolve) => {
            const kill = setTimeout(() => worker.process.kill("SIGKILL"), WORKER_STOP_MS);
            worker.once("exit", () => (clearTimeout(kill), resolve()));
            worker.process.kill("SIGTERM");
          }),
      ),
    );
  };

  let first: Ready;
  try {
    [first] = (await Promise.all(Array.from({ length: count }, (_, i) => start(i + 1)))) as [Ready, ...Ready[]];
  } catch (err) {
    await stop();
    throw err;
  }
  const management = await startHealthServer(config.METRICS_PORT, () => running.size === count, config.HOST);
  logger.info("listening", { url: first.url, metrics: healthUrls(management).metrics, workers: count });
  return [
    { name: "gateway workers", close: stop },
    { name: "management http", close: () => closeServer(management) },
  ];
}
