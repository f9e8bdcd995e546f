import { spawn } from "node:child_process";
import type { EventEmitter } from "node:events";
import type { Writable } from "node:stream";
import {
  KillOnSignal,
  KillOthers,
  LogError,
  LogExit,
  LogOutput,
  Logger,
  RestartProcess,
  createConcurrently,
} from "concurrently";

export interface ServiceCommand {
  name: string;
  /** run by /bin/sh with `exec`, so the service itself is the process signalled */
  command: string;
  prefixColor?: string;
  /** variables set for this service over the stack's own environment */
  env?: Record<string, string>;
}

export interface RestartPolicy {
  /** restarts of one service, over the stack's whole run, before the stack gives up on it */
  tries: number;
  /** milliseconds before each restart, or "exponential": 1 s, 2 s, 4 s… */
  delay: number | "exponential";
}

/**
 * What a supervisor such as Kubernetes or docker-compose's `restart: on-failure` would do for a
 * service that exits on purpose (a lost leader lease, a lost connection): start it again, after a
 * pause long enough for Postgres or RabbitMQ to come back (five tries wait 31 s in all).
 */
export const stackRestartPolicy: RestartPolicy = { tries: 5, delay: "exponential" };

export interface SupervisedServices {
  /** Settles once every service has exited: 0, or 1 when one failed for good. */
  exitCode: Promise<number>;
  /** Aborted once the stack stops, by a signal, by `stop()` or by giving up on a service. */
  stopping: AbortSignal;
  /** SIGTERM to every service, and no restarts from now on. */
  stop(): void;
}

/**
 * Runs the services under concurrently: their output prefixed with their names, a failed service
 * restarted by the policy, and when one fails past its tries, the others stopped. The first signal
 * that `stopSignals` emits (SIGINT, SIGTERM, SIGHUP) is passed on to every service.
 */
export function superviseServices(
  services: ServiceCommand[],
  options: { cwd: string; outputStream: Writable; stopSignals: EventEmitter; restart?: RestartPolicy },
): SupervisedServices {
  const restart = options.restart ?? stackRestartPolicy;
  const logger = new Logger({ prefixFormat: "name" });
  const abortController = new AbortController();
  const { commands, result } = createConcurrently(services, {
    cwd: options.cwd,
    logger,
    outputStream: options.outputStream,
    abortSignal: abortController.signal,
    // Each service gets a process group of its own, so that a Ctrl-C in the terminal reaches only
    // the stack, which passes it on once; in the terminal's group a service would get it twice.
    // `exec`: no shell stays in between to die of the signal, so a clean shutdown reads as exit 0.
    spawn: (command, spawnOptions) => {
      // RestartProcess knows nothing of stopping (open-cli-tools/concurrently#496): a restart that
      // falls due now runs no service, only a line that closes it, so the stack can finish.
      const line = abortController.signal.aborted ? "echo 'not restarted: the stack is stopping'" : `exec ${command}`;
      return spawn("/bin/sh", ["-c", line], { ...spawnOptions, detached: true });
    },
    kill: (pid, signal) => signalGroup(pid, signal ?? "SIGTERM"),
    // In the order of concurrently's own command line: RestartProcess sees the exit codes that
    // KillOnSignal maps (a service stopped by SIGINT exited 0), and KillOthers only the failures
    // RestartProcess gives up on.
    controllers: [
      new LogError({ logger }),
      new LogOutput({ logger }),
      new LogExit({ logger }),
      new KillOnSignal({ process: options.stopSignals, abortController }),
      new RestartProcess({ logger, tries: restart.tries, delay: restart.delay }),
      // A service that keeps failing takes the stack down with it rather than leave it half running.
      new KillOthers({ logger, abortController, conditions: ["failure"], killSignal: "SIGTERM" }),
    ],
  });
  for (const command of commands) {
    // Past RestartProcess, a failure is one it gave up on.
    command.close.subscribe(({ exitCode }) => {
      if (exitCode !== 0) logger.logGlobalEvent(`${command.name} failed again after ${restart.tries} restarts: stopping the stack`);
    });
  }
  return {
    exitCode: result.then(
      () => 0,
      () => 1,
    ),
    stopping: abortController.signal,
    stop: () => {
      abortController.abort();
      for (const command of commands) command.kill("SIGTERM");
    },
  };
}

function signalGroup(pid: number, signal: string): void {
  try {
    process.kill(-pid, signal as NodeJS.Signals);
  } catch (err) {
    // The service and its group are already gone.
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}
