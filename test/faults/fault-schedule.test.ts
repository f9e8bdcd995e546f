import { seededRandom, type ServiceName } from "@sweep/testkit";
import { LEAD_MS, TAIL_MS, describeFault, faultSchedule, type Fault, type ScheduleOptions } from "./fault-schedule";

const SERVICES: ServiceName[] = ["api-gateway", "batcher", "chain-sender", "ledger", "webhook-dispatcher"];
const OPTIONS: ScheduleOptions = { windowMs: 240_000, rounds: 2, services: SERVICES, chainIds: [11155111, 97], chainStopMs: 30_000, chainStallMs: 30_000, webhookFailureMs: 60_000 };

const endOf = (fault: Fault) => fault.atMs + ("durationMs" in fault ? fault.durationMs : fault.downMs);

describe("the fault schedule", () => {
  it.each([0, 1, 7, 42, 123456789, 2 ** 32 - 1])("with seed %i: each round kills every service and restarts the broker once; one chain stop, one chain stall (on the other chain), one webhook failure; all within the load", (seed) => {
    const faults = faultSchedule(seededRandom(seed), OPTIONS);
    const processFaults = faults.filter((f) => f.kind === "kill" || f.kind === "broker-restart").map((f) => (f.kind === "kill" ? f.service : "broker"));
    const everyTarget = [...SERVICES, "broker"].sort();
    expect([processFaults.slice(0, 6).sort(), processFaults.slice(6).sort()]).toEqual([everyTarget, everyTarget]);
    // The first round stops the broker, the second kills it.
    expect(faults.filter((f) => f.kind === "broker-restart").map((f) => f.crash)).toEqual([false, true]);
    expect(faults.filter((f) => f.kind === "chain-stop" || f.kind === "chain-stall" || f.kind === "webhook-failure").map((f) => f.kind).sort()).toEqual(["chain-stall", "chain-stop", "webhook-failure"]);
    expect(faults.map((f) => f.atMs)).toEqual([...faults.map((f) => f.atMs)].sort((a, b) => a - b));
    for (const fault of faults) {
      expect(fault.atMs).toBeGreaterThanOrEqual(LEAD_MS);
      expect(endOf(fault)).toBeLessThanOrEqual(OPTIONS.windowMs - TAIL_MS);
    }
    const chainOf = (kind: Fault["kind"]) => (faults.find((f) => f.kind === kind) as { chainId: number }).chainId;
    expect(faults.find((f) => f.kind === "chain-stop")).toMatchObject({ durationMs: 30_000 });
    expect(faults.find((f) => f.kind === "chain-stall")).toMatchObject({ durationMs: 30_000 });
    expect([chainOf("chain-stop"), chainOf("chain-stall")].sort()).toEqual([...OPTIONS.chainIds].sort());
    expect(faults.find((f) => f.kind === "webhook-failure")).toMatchObject({ durationMs: 60_000 });
  });

  it.each([0, 1, 7, 42])("with seed %i: process faults at least 40%% of a slot apart, so each process is back before the next one goes", (seed) => {
    const slotMs = (OPTIONS.windowMs - LEAD_MS - TAIL_MS) / (2 * (SERVICES.length + 1));
    const moments = faultSchedule(seededRandom(seed), OPTIONS)
      .filter((f) => f.kind === "kill" || f.kind === "broker-restart")
      .map((f) => f.atMs);
    for (let i = 1; i < moments.length; i++) expect(moments[i]! - moments[i - 1]!).toBeGreaterThanOrEqual(Math.floor(slotMs * 0.4));
  });

  it("draws the same schedule from the same seed, and another order from other seeds", () => {
    expect(faultSchedule(seededRandom(5), OPTIONS)).toEqual(faultSchedule(seededRandom(5), OPTIONS));
    const orders = new Set([1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(faultSchedule(seededRandom(seed), OPTIONS).map((f) => (f.kind === "kill" ? f.service : f.kind)))));
    expect(orders.size).toBeGreaterThan(1);
  });

  it("stalls the stopped chain when there is no other", () => {
    const faults = faultSchedule(seededRandom(3), { ...OPTIONS, chainIds: [97] });
    expect(faults.filter((f) => f.kind === "chain-stop" || f.kind === "chain-stall").map((f) => (f as { chainId: number }).chainId)).toEqual([97, 97]);
  });

  it("refuses a window too short for its longest fault", () => {
    expect(() => faultSchedule(seededRandom(1), { ...OPTIONS, windowMs: 70_000 })).toThrow("cannot hold a fault of 60000 ms");
  });

  it("kills each service once in a single round", () => {
    const faults = faultSchedule(seededRandom(9), { ...OPTIONS, rounds: 1 });
    expect(faults.filter((f) => f.kind === "kill").map((f) => (f as { service: ServiceName }).service).sort()).toEqual([...SERVICES].sort());
    expect(faults.filter((f) => f.kind === "broker-restart")).toHaveLength(1);
  });

  it.each<[Fault, string]>([
    [{ kind: "kill", service: "ledger", atMs: 1, downMs: 700 }, "SIGKILL ledger, restarted after 700 ms"],
    [{ kind: "broker-restart", atMs: 1, downMs: 2000, crash: false }, "RabbitMQ stopped, started again after 2000 ms"],
    [{ kind: "broker-restart", atMs: 1, downMs: 2000, crash: true }, "RabbitMQ killed (SIGKILL), started again after 2000 ms"],
    [{ kind: "chain-stop", chainId: 97, atMs: 1, durationMs: 30_000 }, "chain 97's node stopped (SIGSTOP) for 30 s"],
    [{ kind: "chain-stall", chainId: 97, atMs: 1, durationMs: 30_000 }, "chain 97 mined no block for 30 s (interval mining off, its node answering)"],
    [{ kind: "webhook-failure", atMs: 1, durationMs: 60_000 }, "webhook receiver answering 500 for 60 s"],
  ])("describes %o", (fault, line) => {
    expect(describeFault(fault)).toBe(line);
  });
});
