import type { Counter, Histogram, LabelValues } from "prom-client";

/**
 * Metric updates decided inside a database transaction and applied only once it committed: a
 * transaction that rolls back (and is done again by a redelivered message) counts nothing, so
 * what a guarded UPDATE really changed is counted exactly once.
 */
export class PendingMetrics {
  private readonly updates: Array<() => void> = [];

  inc<T extends string>(counter: Counter<T>, labels: LabelValues<T>, by = 1): void {
    this.updates.push(() => counter.inc(labels, by));
  }

  observe<T extends string>(histogram: Histogram<T>, labels: LabelValues<T>, value: number): void {
    this.updates.push(() => histogram.observe(labels, value));
  }

  /** Call once the transaction committed; the updates are applied once. */
  commit(): void {
    for (const update of this.updates.splice(0)) update();
  }
}
