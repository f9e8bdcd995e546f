import type { Logger } from "./logger";

export type Closer = { name: string; close: () => Promise<unknown> | unknown };

/**
 * Graceful shutdown: on SIGTERM or SIGINT, closes what was registered in reverse order
 * (stop taking work first, close connections last), then exits. A second signal exits at once.
 */
export function onShutdown(logger: Logger, closers: Closer[], timeoutMs = 10_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info("shutting down", { signal });
    const timer = setTimeout(() => {
      logger.error("shutdown timed out", { timeoutMs });
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    for (const closer of [...closers].reverse()) {
      try {
        await closer.close();
      } catch (err) {
        logger.warn("close failed", { what: closer.name, err: String(err) });
      }
    }
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
