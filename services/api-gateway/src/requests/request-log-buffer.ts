import { requestLogDropped } from "@sweep/metrics";
import type { RequestLogEntry, RequestLogSink } from "./request-log-entry";

export interface RequestLogBufferOptions {
  /** one multi-row INSERT of the entries */
  write: (entries: readonly RequestLogEntry[]) => Promise<void>;
  /** the longest an entry waits for its batch */
  flushAfterMs: number;
  /** a batch is written as soon as it has this many entries, and never more */
  batchSize: number;
  /** entries held at most, written or not: further ones are dropped (and counted) until writes catch up */
  maxEntries: number;
  /** a batch could not be written: it is lost, and counted */
  writeFailed: (err: unknown, lost: number) => void;
}

/**
 * The request log's entries between their responses and the database: written in batches, one
 * write at a time, in the background. Bounded: while Postgres is down or slow, entries beyond
 * `maxEntries` are dropped rather than held, and a batch whose write fails is not retried; both
 * are counted in sweep_request_log_dropped_total. An entry not yet written when the process dies
 * is lost: the log is for looking a request up, not an audit trail.
 */
export class RequestLogBuffer implements RequestLogSink {
  private pending: RequestLogEntry[] = [];
  private writingCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(private readonly options: RequestLogBufferOptions) {}

  /** entries held: waiting, or being written */
  get size(): number {
    return this.pending.length + this.writingCount;
  }

  add(entry: RequestLogEntry): void {
    if (this.size >= this.options.maxEntries) {
      requestLogDropped.inc({ reason: "buffer_full" });
      return;
    }
    this.pending.push(entry);
    if (this.pending.length >= this.options.batchSize) this.startWriting();
    else this.timer ??= setTimeout(() => this.startWriting(), this.options.flushAfterMs).unref();
  }

  /** Writes every entry held: at shutdown, once the server took its last request, and in tests. */
  async flush(): Promise<void> {
    while (this.writing || this.pending.length > 0) {
      this.startWriting();
      await this.writing;
    }
  }

  private startWriting(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.pending.length === 0) return;
    this.writing = this.writeBatch().finally(() => {
      this.writing = undefined;
      // A full batch goes at once; the rest waits its time, as any entry does.
      if (this.pending.length >= this.options.batchSize) this.startWriting();
      else if (this.pending.length > 0) this.timer ??= setTimeout(() => this.startWriting(), this.options.flushAfterMs).unref();
    });
  }

  private async writeBatch(): Promise<void> {
    const batch = this.pending.splice(0, this.options.batchSize);
    this.writingCount = batch.length;
    try {
      await this.options.write(batch);
    } catch (err) {
      requestLogDropped.inc({ reason: "write_failed" }, batch.length);
      this.options.writeFailed(err, batch.length);
    } finally {
      this.writingCount = 0;
    }
  }
}
