/** The gate is full: more look-ups are waiting than it lets wait. */
export class LookupGateFull extends Error {
  constructor() {
    super("too many API key look-ups waiting");
    this.name = "LookupGateFull";
  }
}

/**
 * At most `concurrency` tasks at once, at most `maxWaiting` queued behind them (first come, first
 * served); beyond that `run` throws LookupGateFull at once, so a flood holds neither connections
 * nor an unbounded queue. A dozen lines, so no library: p-limit has no bound on its queue.
 */
export class LookupGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new LookupGateFull();
      // The slot is handed over by the task that ends, so `running` never drops in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
