import { Gauge } from "prom-client";
import { SCRAPE_READ_TIMEOUT_MS, readOnScrape, registry, scrapeMetrics, sharedRead } from "./registry";

type Reading = Array<{ labels: { queue: string }; value: number }>;

describe("gauges read on scrape", () => {
  let gauge: Gauge<"queue">;
  let name: string;
  let stops: Array<() => void>;
  const depth = (queue: string, value: number) => ({ labels: { queue }, value });
  const series = async () => (await gauge.get()).values.map((v) => [v.labels.queue, v.value]);

  beforeEach(() => {
    name = `test_depth_${Math.random().toString(36).slice(2)}`;
    gauge = new Gauge({ name, help: "test", labelNames: ["queue"] as const, registers: [registry] });
    stops = [];
  });
  afterEach(() => {
    stops.forEach((stop) => stop());
    registry.removeSingleMetric(name);
  });

  const reader = (...answers: Array<Reading | Error>) => {
    const read = jest.fn(async () => {
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer ?? [];
    });
    stops.push(readOnScrape(gauge, read));
    return read;
  };

  it.each<[string, Array<Reading | Error>, Array<[string, number]>]>([
    ["shows what the read returned", [[depth("a", 3), depth("a.dlq", 0)]], [["a", 3], ["a.dlq", 0]]],
    ["drops a series the next read no longer returns", [[depth("a", 3), depth("b", 1)], [depth("a", 4)]], [["a", 4]]],
    ["drops every series of a read that failed", [[depth("a", 3)], new Error("broker down")], []],
    ["shows them again once a read succeeds", [[depth("a", 3)], new Error("broker down"), [depth("a", 5)]], [["a", 5]]],
  ])("%s", async (_name, answers, expected) => {
    const read = reader(...answers);
    for (let i = 0; i < answers.length; i++) await scrapeMetrics();
    expect(read).toHaveBeenCalledTimes(answers.length);
    expect(await series()).toEqual(expected);
  });

  it("keeps the series other readers of the same gauge set", async () => {
    reader([depth("a", 1)], new Error("down"));
    reader([depth("b", 2)], [depth("b", 3)]);
    await scrapeMetrics();
    await scrapeMetrics();
    expect(await series()).toEqual([["b", 3]]);
  });

  it("leaves out a read that does not answer in time, and the scrape still answers", async () => {
    jest.useFakeTimers();
    try {
      stops.push(readOnScrape(gauge, async () => [depth("a", 1)]));
      stops.push(readOnScrape(gauge, () => new Promise<Reading>(() => undefined)));
      const scrape = scrapeMetrics();
      await jest.advanceTimersByTimeAsync(SCRAPE_READ_TIMEOUT_MS);
      const { body, contentType } = await scrape;
      expect(contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(body).toContain(`${name}{queue="a"} 1\n`);
    } finally {
      jest.useRealTimers();
    }
  });

  it("stops reading and removes its series when stopped", async () => {
    const read = jest.fn(async () => [depth("a", 1)]);
    const stop = readOnScrape(gauge, read);
    await scrapeMetrics();
    stop();
    await scrapeMetrics();
    expect(read).toHaveBeenCalledTimes(1);
    expect(await series()).toEqual([]);
  });

  it("gives the gauges of one scrape one read, and the next scrape a new one", async () => {
    const other = new Gauge({ name: `${name}_other`, help: "test", labelNames: ["queue"] as const, registers: [registry] });
    try {
      let reads = 0;
      const read = sharedRead(async () => {
        reads += 1;
        return reads;
      });
      stops.push(readOnScrape(gauge, async () => [depth("a", await read())]));
      stops.push(readOnScrape(other, async () => [depth("b", await read())]));
      await scrapeMetrics();
      await scrapeMetrics();
      expect(reads).toBe(2);
      expect([await series(), (await other.get()).values.map((v) => [v.labels.queue, v.value])]).toEqual([[["a", 2]], [["b", 2]]]);
    } finally {
      registry.removeSingleMetric(`${name}_other`);
    }
  });
});
