import { requestLogDropped } from "@sweep/metrics";
import { RequestLogBuffer, type RequestLogBufferOptions } from "./request-log-buffer";
import type { RequestLogEntry } from "./request-log-entry";

const entry = (n: number): RequestLogEntry => ({
  partnerId: "5d1c54a4-0f5c-4bc3-9c4e-2d4b8f0e9a11",
  requestId: `req_${n}`,
  method: "GET",
  route: "/v1/balance",
  status: 200,
  errorCode: null,
  durationMs: 1,
  createdAt: new Date(0),
});

const dropped = async (reason: string) => (await requestLogDropped.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

/** A buffer whose writes are recorded, and fail or hang as the test says. */
function buffer(options: Partial<RequestLogBufferOptions> = {}) {
  const batches: string[][] = [];
  const failures: number[] = [];
  const log = new RequestLogBuffer({
    write: async (entries) => void batches.push(entries.map((e) => e.requestId)),
    flushAfterMs: 250,
    batchSize: 3,
    maxEntries: 5,
    writeFailed: (_err, lost) => failures.push(lost),
    ...options,
  });
  return { log, batches, failures };
}

describe("the request log's buffer", () => {
  beforeEach(() => {
    jest.useFakeTimers();
    requestLogDropped.reset();
  });
  afterEach(() => jest.useRealTimers());

  it.each<[string, number, number, string[][]]>([
    ["writes nothing before its time", 2, 249, []],
    ["writes a part batch once its time is up", 2, 250, [["req_0", "req_1"]]],
    ["writes a full batch at once", 3, 0, [["req_0", "req_1", "req_2"]]],
    ["writes a full batch at once and the rest in its time", 4, 250, [["req_0", "req_1", "req_2"], ["req_3"]]],
  ])("%s (%i entries, %i ms)", async (_name, count, ms, expected) => {
    const { log, batches } = buffer();
    for (let n = 0; n < count; n += 1) log.add(entry(n));
    await jest.advanceTimersByTimeAsync(ms);
    expect(batches).toEqual(expected);
  });

  it("holds a bounded number: while a write hangs, entries beyond the bound are dropped and counted", async () => {
    let release = () => {};
    const batches: string[][] = [];
    const { log } = buffer({
      write: (entries) =>
        new Promise<void>((resolve) => {
          batches.push(entries.map((e) => e.requestId));
          release = resolve;
        }),
    });
    for (let n = 0; n < 8; n += 1) log.add(entry(n));
    expect(log.size).toBe(5);
    expect(await dropped("buffer_full")).toBe(3);
    release();
    await jest.advanceTimersByTimeAsync(250);
    release();
    await log.flush();
    expect(batches).toEqual([["req_0", "req_1", "req_2"], ["req_3", "req_4"]]);
    expect(log.size).toBe(0);
  });

  it("drops and counts a batch whose write fails, and goes on with the next", async () => {
    let calls = 0;
    const { log, failures } = buffer({
      write: async () => {
        calls += 1;
        if (calls === 1) throw new Error("connection refused");
      },
    });
    for (let n = 0; n < 4; n += 1) log.add(entry(n));
    await log.flush();
    expect(failures).toEqual([3]);
    expect(await dropped("write_failed")).toBe(3);
    expect(calls).toBe(2);
    expect(log.size).toBe(0);
  });

  it("flush writes every entry held, in batches", async () => {
    const { log, batches } = buffer({ maxEntries: 100 });
    for (let n = 0; n < 7; n += 1) log.add(entry(n));
    await log.flush();
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
  });
});
