import { LookupGate, LookupGateFull } from "./lookup-gate";

/** A task that ends when told to, counting how many run at once. */
function tasks() {
  let inFlight = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const task = () =>
    new Promise<number>((resolve) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      releases.push(() => {
        inFlight--;
        resolve(peak);
      });
    });
  return { task, releases, peak: () => peak };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("LookupGate", () => {
  it.each([
    [1, 0, 1, 1],
    [2, 3, 5, 2],
    [3, 10, 13, 3],
  ])("with concurrency %d and %d waiting runs %d tasks, at most %d at once", async (concurrency, maxWaiting, count, peak) => {
    const gate = new LookupGate(concurrency, maxWaiting);
    const t = tasks();
    const all = Promise.all(Array.from({ length: count }, () => gate.run(t.task)));
    for (let released = 0; released < count; released++) {
      await tick();
      t.releases.shift()!();
    }
    await all;
    expect(t.peak()).toBe(peak);
  });

  it("refuses at once beyond the waiting bound, and takes tasks again once there is room", async () => {
    const gate = new LookupGate(1, 1);
    const t = tasks();
    const first = gate.run(t.task);
    const second = gate.run(t.task);
    await expect(gate.run(t.task)).rejects.toBeInstanceOf(LookupGateFull);
    await tick();
    t.releases.shift()!();
    await first;
    const third = gate.run(t.task);
    await tick();
    t.releases.shift()!();
    await tick();
    t.releases.shift()!();
    await Promise.all([second, third]);
    expect(t.peak()).toBe(1);
  });

  it("frees the slot of a task that fails", async () => {
    const gate = new LookupGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    await expect(gate.run(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
