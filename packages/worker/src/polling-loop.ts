import { loopRoundsTotal } from "@sweep/metrics";

/**
 * What a round asks of the loop: `again` starts the next round at once (more work is waiting), `idle`
 * says it found nothing to do (the loop may rest longer, see `idleMaxMs`), `{ idleUntil }` says the
 * same and that the next work it knows of is due at that time (epoch ms): the rest ends then at the
 * latest, though never before one interval. `done` ends the loop.
 */
export type RoundOutcome = "again" | "idle" | { idleUntil: number } | "done" | void;

export interface PollingLoopOptions {
  /** the loop's name in `sweep_loop_rounds_total{loop}` */
  name: string;
  /** the pause between rounds */
  intervalMs: number;
  /** One round; `stopping` is aborted once stop() is called, for a round that stops between its parts. */
  round: (stopping: AbortSignal) => Promise<RoundOutcome>;
  /** A round threw: its owner logs it (in its words, at its level); `failures` counts the failed rounds in a row. */
  failed: (err: unknown, failures: number) => void;
  /** the first round only after one interval (a schedule that must not run at every start) */
  pauseFirst?: boolean;
  /** after a failed round the pause doubles per failure in a row from the interval, up to this; without it, the interval */
  maxBackoffMs?: number;
  /**
   * After rounds that found nothing (`idle`) the pause doubles per idle round in a row from the
   * interval, up to this; a wake or a round with work brings it back to the interval. Without it, the
   * interval. It is for loops whose work also arrives by wake(), where the poll only catches what no
   * wake announced (a crashed writer's rows, another process's): an idle stack then rests.
   */
  idleMaxMs?: number;
  /** The pause between rounds when it is not a plain wait of `ms`; it ends early when `cut` is aborted (stop or wake). */
  pause?: (ms: number, cut: AbortSignal) => Promise<void>;
}

/**
 * The one skeleton of the services' polling loops: a round, then a pause of the interval (longer
 * after failures when `maxBackoffMs` is set), cut short by wake() and by stop(); a wake during a
 * round skips the next pause, so it is never lost. stop() ends the loop after the round under way.
 * Each round is counted by outcome (ok, failed) in sweep_loop_rounds_total.
 */
export class PollingLoop {
  private readonly stopController = new AbortController();
  private woken = new AbortController();
  private running?: Promise<void>;

  constructor(private readonly options: PollingLoopOptions) {}

  /** aborted once stop() is called */
  get stopping(): AbortSignal {
    return this.stopController.signal;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Starts the next round now (or right after the round under way). */
  wake(): void {
    this.woken.abort();
  }

  /** Ends the loop after the round under way. */
  async stop(): Promise<void> {
    this.stopController.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const { name } = this.options;
    let failures = 0;
    let idleRounds = 0;
    if (this.options.pauseFirst) await this.pause(this.options.intervalMs);
    while (!this.stopping.aborted) {
      // Renewed before the round, so a wake during it is not lost: the pause below then ends at once.
      this.woken = new AbortController();
      let outcome: RoundOutcome = undefined;
      try {
        outcome = await this.options.round(this.stopping);
        failures = 0;
        loopRoundsTotal.inc({ loop: name, outcome: "ok" });
      } catch (err) {
        failures += 1;
        loopRoundsTotal.inc({ loop: name, outcome: "failed" });
        this.options.failed(err, failures);
      }
      if (outcome === "done") return;
      if (outcome === "again") continue;
      const idle = outcome === "idle" || typeof outcome === "object";
      idleRounds = idle && failures === 0 ? idleRounds + 1 : 0;
      const dueInMs = typeof outcome === "object" ? outcome.idleUntil - Date.now() : undefined;
      await this.pause(pauseAfter({ ...this.options, failures, idleRounds, dueInMs }));
      // A wake (during the round, which ends the pause at once, or during the pause) means work arrived: no rest then.
      if (this.woken.signal.aborted) idleRounds = 0;
    }
  }

  private async pause(ms: number): Promise<void> {
    const cut = AbortSignal.any([this.stopping, this.woken.signal]);
    if (this.options.pause) await this.options.pause(ms, cut);
    else await pauseFor(ms, cut);
  }
}

/**
 * The pause after a round: the interval, doubled per failed round in a row (up to `maxBackoffMs`),
 * or per idle round in a row (up to `idleMaxMs`, and up to `dueInMs` when the idle round knew when
 * its next work is due, but never below the interval); each only when its bound is set.
 */
export function pauseAfter(input: { intervalMs: number; failures: number; idleRounds: number; maxBackoffMs?: number; idleMaxMs?: number; dueInMs?: number }): number {
  const { intervalMs, failures, idleRounds, maxBackoffMs, idleMaxMs, dueInMs } = input;
  const doubled = (times: number) => intervalMs * 2 ** Math.min(times, 30);
  if (failures > 0) return maxBackoffMs === undefined ? intervalMs : Math.min(maxBackoffMs, doubled(failures));
  if (idleRounds > 1 && idleMaxMs !== undefined) return Math.max(intervalMs, Math.min(idleMaxMs, doubled(idleRounds - 1), dueInMs ?? Infinity));
  return intervalMs;
}

/** Resolves after `ms`, or at once when `cut` is (or becomes) aborted. */
export function pauseFor(ms: number, cut: AbortSignal): Promise<void> {
  if (cut.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      cut.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    cut.addEventListener("abort", done);
  });
}
