/**
 * Carries out a fault schedule against a running stack: process faults one after the other at
 * their moments (a SIGKILLed service is started again on its ports; the broker is stopped and
 * started on its data), the chain stop, the chain stall and the webhook failure beside them. The
 * chain-sender's kill and the chain faults wait a little past their moment for a transaction in
 * flight, the case they are there to try (a restart resuming it; a node hanging with it in its
 * pool; a node keeping it in its pool until the sender replaces it).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { PrivateRabbitMQ, TestChain } from "@sweep/testkit";
import type { Fault } from "./fault-schedule";
import type { Supervisor } from "./supervisor";

export interface InjectedFault {
  fault: Fault;
  /** ms after the load started: when the fault began, and when the part it hit answered again */
  startedMs: number;
  recoveredMs: number;
  /** what went wrong injecting it or bringing the part back */
  error?: string;
  /** transactions signed or broadcast when it hit, for the faults that wait for some */
  inFlight?: number;
}

export interface FaultTargets {
  services: Pick<Supervisor, "kill" | "restart">;
  chain(chainId: number): TestChain;
  /** seconds between the chains' blocks, restored after a stall */
  blockTime: number;
  broker: PrivateRabbitMQ;
  /** the partners' receiver: answering 500 from `fail()` until `recover()` */
  webhooks: { fail(): void; recover(): void };
  /** transactions signed or broadcast, on one chain or on all */
  inFlight(chainId?: number): Promise<number>;
}

/** The longest a fault waits past its moment for a transaction in flight: at a few operations a second one comes within blocks. */
const AIM_MS = 10_000;

/** Resolves once every fault is over, each recorded, never rejecting: a fault that went wrong carries its error. */
export async function injectFaults(schedule: readonly Fault[], targets: FaultTargets, loadStartedAt: number): Promise<InjectedFault[]> {
  const injected: InjectedFault[] = [];
  const now = () => Date.now() - loadStartedAt;
  const at = (ms: number) => sleep(Math.max(0, ms - now()));
  const record = async (fault: Fault, inject: () => Promise<void>, aimAt?: () => Promise<number>) => {
    await at(fault.atMs);
    let inFlight: number | undefined;
    if (aimAt) {
      const until = Date.now() + AIM_MS;
      for (inFlight = await aimAt(); inFlight === 0 && Date.now() < until; inFlight = await aimAt()) await sleep(50);
    }
    const startedMs = now();
    try {
      await inject();
      injected.push({ fault, startedMs, recoveredMs: now(), inFlight });
    } catch (err) {
      injected.push({ fault, startedMs, recoveredMs: now(), inFlight, error: String(err).slice(0, 2_000) });
    }
  };

  const processFaults = async () => {
    for (const fault of schedule) {
      if (fault.kind === "kill") {
        await record(
          fault,
          async () => {
            await targets.services.kill(fault.service);
            await sleep(fault.downMs);
            await targets.services.restart(fault.service);
          },
          fault.service === "chain-sender" ? () => targets.inFlight() : undefined,
        );
      } else if (fault.kind === "broker-restart") {
        await record(fault, () => targets.broker.restart(fault.downMs, { crash: fault.crash }));
      }
    }
  };
  const overlapping = schedule.map(async (fault) => {
    if (fault.kind === "chain-stop") {
      const node = targets.chain(fault.chainId).node.process;
      await record(
        fault,
        async () => {
          // SIGSTOP: the node keeps its state and its sockets but answers nothing, as a hung node.
          node.kill("SIGSTOP");
          try {
            await sleep(fault.durationMs);
          } finally {
            node.kill("SIGCONT");
          }
        },
        () => targets.inFlight(fault.chainId),
      );
    } else if (fault.kind === "chain-stall") {
      const provider = targets.chain(fault.chainId).provider;
      await record(
        fault,
        async () => {
          // Interval mining off: the node answers every call and takes transactions into its pool, but includes none.
          await provider.send("evm_setIntervalMining", [0]);
          try {
            await sleep(fault.durationMs);
          } finally {
            await provider.send("evm_setIntervalMining", [targets.blockTime]);
          }
        },
        () => targets.inFlight(fault.chainId),
      );
    } else if (fault.kind === "webhook-failure") {
      await record(fault, async () => {
        targets.webhooks.fail();
        try {
          await sleep(fault.durationMs);
        } finally {
          targets.webhooks.recover();
        }
      });
    }
  });
  await Promise.all([processFaults(), ...overlapping]);
  return injected.sort((a, b) => a.startedMs - b.startedMs);
}
