import { Writable } from "node:stream";
import winston from "winston";
import { createLogger, type Logger } from "./logger";

/** The logger's lines, its console transport swapped for a stream into this array. */
function capture(logger: Logger): string[] {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  logger.clear().add(new winston.transports.Stream({ stream }));
  return written;
}

describe("createLogger", () => {
  it.each<[string, string, boolean]>([
    ["warn", "error", true],
    ["warn", "warn", true],
    ["warn", "info", false],
    ["warn", "debug", false],
    ["info", "info", true],
    ["info", "debug", false],
    ["debug", "debug", true],
  ])("at LOG_LEVEL=%s writes a %s line: %s", (level, lineLevel, writes) => {
    const logger = createLogger("test", level);
    const written = capture(logger);
    logger.log(lineLevel, "a line", { partnerId: "p" });
    expect(written.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual(writes ? [expect.objectContaining({ level: lineLevel, message: "a line", partnerId: "p", service: "test" })] : []);
  });

  it("never formats a line of a level it does not write, also from a child logger", () => {
    let formatted = 0;
    const fields = { detail: { toJSON: () => ++formatted } };
    const logger = createLogger("test", "warn");
    const written = capture(logger);
    logger.info("dropped", fields);
    logger.child({ requestId: "r" }).debug("dropped too", fields);
    expect(formatted).toBe(0);
    logger.warn("written", fields);
    expect(formatted).toBe(1);
    expect(written).toHaveLength(1);
  });
});
