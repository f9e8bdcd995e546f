import type { Random, ServiceName } from "@sweep/testkit";

/** One fault, at a moment counted from the start of the load. */
export type Fault =
  /** SIGKILL of the service, started again `downMs` later */
  | { kind: "kill"; service: ServiceName; atMs: number; downMs: number }
  /** the broker stopped (or killed: `crash`), started again `downMs` later on the same data */
  | { kind: "broker-restart"; atMs: number; downMs: number; crash: boolean }
  /** the chain's node answers nothing for `durationMs` */
  | { kind: "chain-stop"; chainId: number; atMs: number; durationMs: number }
  /** the chain's node answers every call but mines no block for `durationMs`: transactions wait in its pool */
  | { kind: "chain-stall"; chainId: number; atMs: number; durationMs: number }
  /** the partners' webhook receiver answers 500 for `durationMs` */
  | { kind: "webhook-failure"; atMs: number; durationMs: number };

export interface ScheduleOptions {
  /** how long the load runs: every fault starts and ends within it */
  windowMs: number;
  /** how many times each service is killed and the broker restarted, each round in its own random order */
  rounds: number;
  services: readonly ServiceName[];
  chainIds: readonly number[];
  chainStopMs: number;
  /** longer than the chain-sender's REPLACE_AFTER_MS, so what waits in the pool is replaced */
  chainStallMs: number;
  webhookFailureMs: number;
}

/** No fault before the load has warmed up, none ending in the last moments of it. */
export const LEAD_MS = 5_000;
export const TAIL_MS = 10_000;
/**
 * Process faults (kills, the broker restart) take one slot each, in random order, at a random
 * moment of its first part: the rest leaves the process time to come back before the next one,
 * so each fault is seen on its own. The chain stop, the chain stall and the webhook failure
 * overlap them freely; with two chains or more, the stop and the stall hit different chains.
 */
const SLOT_PART = 0.6;

/** The faults of one run, drawn from `random`, by starting time. */
export function faultSchedule(random: Random, options: ScheduleOptions): Fault[] {
  const { windowMs, rounds, services, chainIds, chainStopMs, chainStallMs, webhookFailureMs } = options;
  const longest = Math.max(chainStopMs, chainStallMs, webhookFailureMs);
  if (windowMs < LEAD_MS + longest + TAIL_MS) throw new RangeError(`a window of ${windowMs} ms cannot hold a fault of ${longest} ms`);
  const perRound = services.length + 1;
  const processFaults = Array.from({ length: rounds }, () => random.shuffle<ServiceName | "broker">([...services, "broker"])).flat();
  const slotMs = (windowMs - LEAD_MS - TAIL_MS) / processFaults.length;
  const faults: Fault[] = processFaults.map((target, i) => {
    const atMs = Math.round(LEAD_MS + i * slotMs + random.next() * slotMs * SLOT_PART);
    // Every other round the broker crashes instead of stopping: unconfirmed publishes die with it.
    const crash = Math.floor(i / perRound) % 2 === 1;
    return target === "broker" ? { kind: "broker-restart", atMs, downMs: random.int(1_000, 5_000), crash } : { kind: "kill", service: target, atMs, downMs: random.int(500, 3_000) };
  });
  const startWithin = (durationMs: number) => random.int(LEAD_MS, windowMs - TAIL_MS - durationMs);
  const stopped = random.pick(chainIds);
  const others = chainIds.filter((chainId) => chainId !== stopped);
  faults.push({ kind: "chain-stop", chainId: stopped, atMs: startWithin(chainStopMs), durationMs: chainStopMs });
  faults.push({ kind: "chain-stall", chainId: others.length > 0 ? random.pick(others) : stopped, atMs: startWithin(chainStallMs), durationMs: chainStallMs });
  faults.push({ kind: "webhook-failure", atMs: startWithin(webhookFailureMs), durationMs: webhookFailureMs });
  return faults.sort((a, b) => a.atMs - b.atMs);
}

/** One line per fault for the printed figures. */
export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case "kill":
      return `SIGKILL ${fault.service}, restarted after ${fault.downMs} ms`;
    case "broker-restart":
      return `RabbitMQ ${fault.crash ? "killed (SIGKILL)" : "stopped"}, started again after ${fault.downMs} ms`;
    case "chain-stop":
      return `chain ${fault.chainId}'s node stopped (SIGSTOP) for ${fault.durationMs / 1000} s`;
    case "chain-stall":
      return `chain ${fault.chainId} mined no block for ${fault.durationMs / 1000} s (interval mining off, its node answering)`;
    case "webhook-failure":
      return `webhook receiver answering 500 for ${fault.durationMs / 1000} s`;
  }
}
