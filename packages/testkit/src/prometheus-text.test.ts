import { ScrapedMetrics, parsePrometheusText, type Sample } from "./prometheus-text";

describe("Prometheus text", () => {
  it.each<[string, string, Sample[]]>([
    ["a sample without labels", "process_cpu_seconds_total 0.25", [{ name: "process_cpu_seconds_total", labels: {}, value: 0.25 }]],
    ["labels", 'sweep_sweeps_final_total{chain_id="97",status="swept",reason="none"} 3', [{ name: "sweep_sweeps_final_total", labels: { chain_id: "97", status: "swept", reason: "none" }, value: 3 }]],
    ["escaped label values", 'm{a="say \\"hi\\"",b="back\\\\slash",c="two\\nlines"} 1', [{ name: "m", labels: { a: 'say "hi"', b: "back\\slash", c: "two\nlines" }, value: 1 }]],
    ["a comma and a brace inside a value", 'm{route="/v1/{a,b}"} 2', [{ name: "m", labels: { route: "/v1/{a,b}" }, value: 2 }]],
    ["infinite bounds and a timestamp", 'h_bucket{le="+Inf"} 4 1700000000000\nm -Inf', [{ name: "h_bucket", labels: { le: "+Inf" }, value: 4 }, { name: "m", labels: {}, value: -Infinity }]],
    ["NaN as prom-client writes it, and in Prometheus's own spellings", "a Nan\nb NaN\nc nan\nd +inf", [{ name: "a", labels: {}, value: NaN }, { name: "b", labels: {}, value: NaN }, { name: "c", labels: {}, value: NaN }, { name: "d", labels: {}, value: Infinity }]],
    ["comments and blank lines skipped", "# HELP m help\n# TYPE m counter\n\nm 1\n", [{ name: "m", labels: {}, value: 1 }]],
  ])("reads %s", (_name, text, samples) => {
    expect(parsePrometheusText(text)).toEqual(samples);
  });

  it.each(["not a sample", "m one", "m 1x"])("refuses %j, which is no sample", (line) => {
    expect(() => parsePrometheusText(line)).toThrow("not a sample line");
  });

  it("sums the samples with at least the given labels, and tells a series never written", () => {
    const metrics = new ScrapedMetrics(parsePrometheusText('c{s="a",r="x"} 1\nc{s="a",r="y"} 2\nc{s="b",r="x"} 4'));
    expect([metrics.sum("c"), metrics.sum("c", { s: "a" }), metrics.sum("c", { s: "b", r: "x" }), metrics.sum("c", { s: "c" }), metrics.sum("d")]).toEqual([7, 3, 4, undefined, undefined]);
  });
});
