/**
 * Stands in for the orchestrator of a deployment, which starts a container again when its process
 * ends: a service that exits without being killed on purpose is started again (as the chain-sender
 * expects when it fences itself off after losing its lease), and the exit is recorded. It also
 * keeps the logs of every process that ended, which the stack forgets on a restart.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { ServiceName, ServiceProcess, Stack } from "@sweep/testkit";

export interface UnplannedExit {
  service: ServiceName;
  /** ms after `since` */
  atMs: number;
  code: number | null;
  /** the last lines it logged */
  lastLines: string[];
}

export class Supervisor {
  readonly exits: UnplannedExit[] = [];
  /** name → output of each process that ended, oldest first */
  readonly endedLogs: Array<{ name: string; output: string }> = [];
  private readonly plannedKills = new Set<ServiceProcess>();
  /** one restart or kill of a service at a time, so two never start side by side */
  private readonly lanes = new Map<ServiceName, Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly stack: Stack,
    private readonly since: number,
  ) {
    for (const service of stack.services.values()) this.watch(service);
  }

  /** SIGKILL as a fault: the caller starts it again (`restart`), not the supervisor. */
  kill(name: ServiceName): Promise<void> {
    return this.serial(name, async () => {
      const victim = this.stack.services.get(name)!;
      this.plannedKills.add(victim);
      await victim.kill();
    });
  }

  restart(name: ServiceName): Promise<void> {
    return this.serial(name, async () => this.watch(await this.stack.restart(name)));
  }

  /** Restarts nothing from now on (before the stack stops its services). */
  stop(): void {
    this.stopped = true;
  }

  private watch(service: ServiceProcess): void {
    void service.exited.then(async (code) => {
      this.endedLogs.push({ name: `${service.name}.ended-at-${Math.round((Date.now() - this.since) / 1000)}s`, output: service.output() });
      if (this.stopped || this.plannedKills.has(service)) return;
      this.exits.push({ service: service.name, atMs: Date.now() - this.since, code, lastLines: service.output().trimEnd().split("\n").slice(-5) });
      // As an orchestrator does: again and again, with a growing pause, until it stays up.
      for (let attempt = 1; !this.stopped; attempt++) {
        try {
          await this.serial(service.name, async () => {
            if (this.stack.services.get(service.name) === service) this.watch(await this.stack.restart(service.name));
          });
          return;
        } catch {
          await sleep(Math.min(10_000, 1_000 * attempt));
        }
      }
    });
  }

  private serial(name: ServiceName, work: () => Promise<void>): Promise<void> {
    const done = (this.lanes.get(name) ?? Promise.resolve()).then(work);
    this.lanes.set(
      name,
      done.catch(() => undefined),
    );
    return done;
  }
}
