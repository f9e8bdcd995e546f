import { Registry, collectDefaultMetrics, type Gauge, type LabelValues } from "prom-client";

/** The process's one registry: every metric of the suite registers here, and /metrics serves it. */
export const registry = new Registry();

let processMetrics = false;

/**
 * Node's own metrics (CPU, memory, event loop lag, GC) under their standard names, so stock
 * dashboards read them. Started by the process that serves /metrics, not on import: the CLI and
 * tests that load this package watch nothing.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** A broker or database slower than this leaves its gauges out of the scrape rather than hold it up. */
export const SCRAPE_READ_TIMEOUT_MS = 2_000;

const scrapeReads = new Set<() => Promise<void>>();

export type GaugeReading<T extends string> = ReadonlyArray<{ labels: LabelValues<T>; value: number }>;

/**
 * Sets a gauge from `read` on every scrape (queue depths, the outbox backlog: values another
 * system holds). The series this reader set are its own: a series it no longer returns goes, and
 * when the read fails or times out all of them go, so a scrape never shows a stale value as
 * current and never fails for it. Returns the function that stops reading and removes them.
 */
export function readOnScrape<T extends string>(gauge: Gauge<T>, read: () => Promise<GaugeReading<T>>): () => void {
  let shown = new Map<string, LabelValues<T>>();
  let stopped = false;
  const update = async () => {
    const readings = await withTimeout(read(), SCRAPE_READ_TIMEOUT_MS).catch((): GaugeReading<T> => []);
    if (stopped) return;
    const next = new Map(readings.map(({ labels }) => [labelKey(labels), labels]));
    for (const [key, labels] of shown) if (!next.has(key)) gauge.remove(labels);
    for (const { labels, value } of readings) gauge.set(labels, value);
    shown = next;
  };
  scrapeReads.add(update);
  return () => {
    stopped = true;
    scrapeReads.delete(update);
    for (const labels of shown.values()) gauge.remove(labels);
    shown = new Map();
  };
}

/**
 * One read for the gauges a scrape sets from the same answer (one query's row): the scrape reads
 * its gauges together, so while a read is under way every caller gets that read, and the next
 * scrape reads anew.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () => (reading ??= read().finally(() => (reading = undefined)));
}

/** The Prometheus text of every metric, after the gauges read on scrape were read. */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  await Promise.all([...scrapeReads].map((update) => update()));
  return { contentType: registry.contentType, body: await registry.metrics() };
}

function labelKey(labels: object): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
