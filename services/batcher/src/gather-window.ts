export interface WindowTimes {
  /** the round starts this long after the last request… */
  quietMs: number;
  /** …but never later than this after the first */
  maxMs: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Slot {
  waiters: Waiter[];
  firstAt?: number;
  /** a request asked for the round to start without the window */
  immediate?: boolean;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/**
 * Gathers requests per key (a hot wallet) into one round: a request opens a short window that
 * each further request extends (debounce), up to a maximum; then the round runs once for all of
 * them. Requests made while a round of that key runs open the next window when it ends, so one
 * key never has two rounds at once in this process. An immediate request skips the window: the
 * round starts now, or as soon as the running one ends.
 */
export class GatherWindow {
  private readonly slots = new Map<string, Slot>();
  private stopping = false;

  constructor(
    private readonly times: WindowTimes,
    private readonly round: (key: string) => Promise<unknown>,
  ) {}

  /** Resolves once a round that started after this call has finished; rejects when that round failed or the window closed for good (stop). */
  request(key: string, options: { immediate?: boolean } = {}): Promise<void> {
    if (this.stopping) return Promise.reject(new Error("stopping: no new batch rounds"));
    const slot = this.slots.get(key) ?? { waiters: [] };
    this.slots.set(key, slot);
    const done = new Promise<void>((resolve, reject) => slot.waiters.push({ resolve, reject }));
    if (options.immediate) slot.immediate = true;
    if (!slot.running) this.arm(key, slot);
    return done;
  }

  /** Keys with a window open or a round running. */
  get busy(): number {
    return this.slots.size;
  }

  /** Takes no more requests, drops the windows not yet started (their requesters are told), and waits for the rounds under way. */
  async stop(): Promise<void> {
    this.stopping = true;
    const running: Promise<void>[] = [];
    for (const [key, slot] of this.slots) {
      clearTimeout(slot.timer);
      if (slot.running) running.push(slot.running);
      else {
        this.slots.delete(key);
        rejectAll(slot.waiters.splice(0));
      }
    }
    await Promise.allSettled(running);
  }

  private arm(key: string, slot: Slot): void {
    const now = Date.now();
    slot.firstAt ??= now;
    clearTimeout(slot.timer);
    const at = slot.immediate ? now : Math.min(now + this.times.quietMs, slot.firstAt + this.times.maxMs);
    slot.timer = setTimeout(() => this.start(key, slot), Math.max(0, at - now));
  }

  private start(key: string, slot: Slot): void {
    slot.timer = undefined;
    slot.firstAt = undefined;
    slot.immediate = undefined;
    const waiters = slot.waiters.splice(0);
    slot.running = Promise.resolve()
      .then(() => this.round(key))
      .then(
        () => waiters.forEach((w) => w.resolve()),
        (err: unknown) => waiters.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        slot.running = undefined;
        if (slot.waiters.length === 0) this.slots.delete(key);
        else if (this.stopping) {
          this.slots.delete(key);
          rejectAll(slot.waiters.splice(0));
        } else this.arm(key, slot);
      });
  }
}

function rejectAll(waiters: Waiter[]): void {
  for (const w of waiters) w.reject(new Error("stopping: the batch round was not started"));
}
