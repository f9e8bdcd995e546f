/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (format 0.0.4): comments and blank lines skipped, label values unescaped. */
export function parsePrometheusText(text: string): Sample[] {
  return text.split("\n").flatMap((line): Sample[] => {
    if (line.trim() === "" || line.startsWith("#")) return [];
    const match = sampleLine.exec(line);
    const value = match ? parseValue(match[3]!) : undefined;
    if (!match || value === undefined) throw new Error(`not a sample line: ${line}`);
    const [, name, labelText] = match;
    const labels = Object.fromEntries([...(labelText ?? "").matchAll(labelPair)].map(([, key, raw]) => [key!, unescape(raw!)]));
    return [{ name: name!, labels, value }];
  });
}

function unescape(raw: string): string {
  return raw.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

/** Like Prometheus's own parser (Go's ParseFloat), NaN and Inf in any case: prom-client writes a NaN as "Nan". */
function parseValue(text: string): number | undefined {
  const special = specialValues[text.toLowerCase()];
  if (special !== undefined) return special;
  const value = Number(text);
  return Number.isNaN(value) || text.trim() === "" ? undefined : value;
}

const specialValues: Record<string, number> = { nan: NaN, inf: Infinity, "+inf": Infinity, "-inf": -Infinity };

/** A service's metrics as scraped once, queried by name and the labels a sample must have. */
export class ScrapedMetrics {
  constructor(readonly samples: readonly Sample[]) {}

  /** The samples of `name` with at least these labels. */
  find(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  }

  /** The sum of those samples' values; undefined when there is none (a series never written). */
  sum(name: string, labels: Record<string, string> = {}): number | undefined {
    const found = this.find(name, labels);
    return found.length === 0 ? undefined : found.reduce((total, s) => total + s.value, 0);
  }
}

/** GET /metrics on a service's port (ServiceProcess.metricsPort), checked to be Prometheus text. */
export async function readMetrics(port: number): Promise<ScrapedMetrics> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (res.status !== 200 || !res.headers.get("content-type")?.startsWith("text/plain; version=0.0.4")) {
    throw new Error(`GET /metrics on port ${port}: ${res.status} ${res.headers.get("content-type")}`);
  }
  return new ScrapedMetrics(parsePrometheusText(await res.text()));
}
