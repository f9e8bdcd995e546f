import { ConfigError } from "./config";
import { createLogger, type Logger } from "./logger";
import { onShutdown, type Closer } from "./shutdown";

/**
 * The frame of every service's main: configuration first (a bad variable stops the process with a
 * message naming it), then `start`, which opens connections and returns what shutdown must close,
 * in the order they were opened.
 */
export async function runService<C>(
  name: string,
  loadConfig: () => C,
  start: (ctx: { config: C; logger: Logger }) => Promise<Closer[]>,
): Promise<void> {
  const bootLogger = createLogger(name);
  let config: C;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    bootLogger.error(err.message, { problems: err.problems });
    process.exit(1);
  }
  const logger = createLogger(name, (config as { LOG_LEVEL?: string }).LOG_LEVEL);
  try {
    const closers = await start({ config, logger });
    onShutdown(logger, closers);
    logger.info("started", { pid: process.pid });
  } catch (err) {
    logger.error("could not start", { err: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
}
