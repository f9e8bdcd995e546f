import winston from "winston";

export type Logger = winston.Logger;

/** JSON lines on stdout, one logger per service; child loggers carry ids (partner, sweep, batch, tx). */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
