import { Counter, Histogram, Registry } from "prom-client";
import { PendingMetrics } from "./pending-metrics";

describe("metrics pending a commit", () => {
  const registers = [new Registry()];
  const counter = new Counter({ name: "test_final_total", help: "test", labelNames: ["status"] as const, registers });
  const histogram = new Histogram({ name: "test_size", help: "test", labelNames: ["purpose"] as const, buckets: [1, 10], registers });
  beforeEach(() => registers[0]!.resetMetrics());

  const counted = async () => (await counter.get()).values.map((v) => [v.labels.status, v.value]);
  const observed = async () => (await histogram.get()).values.filter((v) => v.metricName === "test_size_sum").map((v) => [v.labels.purpose, v.value]);

  it("changes nothing until committed", async () => {
    const pending = new PendingMetrics();
    pending.inc(counter, { status: "swept" }, 2);
    pending.observe(histogram, { purpose: "sweep" }, 7);
    expect(await counted()).toEqual([]);
    expect(await observed()).toEqual([]);
  });

  it("applies every update once, however often commit is called", async () => {
    const pending = new PendingMetrics();
    pending.inc(counter, { status: "swept" }, 2);
    pending.inc(counter, { status: "rejected" });
    pending.observe(histogram, { purpose: "sweep" }, 7);
    pending.commit();
    pending.commit();
    expect(await counted()).toEqual([["swept", 2], ["rejected", 1]]);
    expect(await observed()).toEqual([["sweep", 7]]);
  });
});
