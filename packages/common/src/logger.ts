import winston from "winston";

export type Logger = winston.Logger;

/** JSON lines on stdout, one logger per service; child loggers carry ids (partner, sweep, batch, tx). */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  const logger: Logger = winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(belowLevel(() => logger), winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
  return logger;
}

/**
 * Drops a line of a level the logger does not write before it is formatted: winston formats
 * (timestamp, JSON) every line and leaves the level to its transports, so each request's access
 * line and each debug line cost a JSON.stringify at LOG_LEVEL=warn (issue 28).
 */
function belowLevel(loggerOf: () => Logger) {
  return winston.format((info) => {
    const logger = loggerOf();
    return (logger.levels[info.level] ?? 0) <= (logger.levels[logger.level] ?? Infinity) ? info : false;
  })();
}
