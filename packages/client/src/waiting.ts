/** The statuses after which a sweep, a revocation or a hot wallet changes no more. */
export const finalStatuses = {
  sweep: ["swept", "failed", "rejected"],
  revocation: ["revoked", "failed", "rejected"],
  hotWallet: ["active", "failed"],
} as const;

export interface WaitOptions {
  /** give up after this long (default 5 minutes) */
  timeoutMs?: number;
  /** pause between reads (default 1 s) */
  intervalMs?: number;
  signal?: AbortSignal;
}

/** waitFor… ran out of time: `last` is the object as last read, still not final. */
export class WaitTimeoutError<T> extends Error {
  override readonly name = "WaitTimeoutError";

  constructor(
    message: string,
    readonly last: T,
  ) {
    super(message);
  }
}

/** Reads until the status is one of `final`, pausing between reads; throws WaitTimeoutError when time runs out. */
export async function pollUntil<T extends { status: string }>(read: () => Promise<T>, final: readonly string[], what: string, options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  const intervalMs = options.intervalMs ?? 1_000;
  for (;;) {
    const current = await read();
    if (final.includes(current.status)) return current;
    if (Date.now() + intervalMs > deadline) throw new WaitTimeoutError(`${what} is still ${current.status} after ${options.timeoutMs ?? 300_000} ms`, current);
    await pause(intervalMs, options.signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
