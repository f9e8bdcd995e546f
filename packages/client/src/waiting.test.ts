import { finalStatuses, pollUntil, WaitTimeoutError } from "./waiting";

describe("pollUntil", () => {
  const reads = (...statuses: string[]) => {
    const read = jest.fn(async () => ({ status: statuses.length > 1 ? statuses.shift()! : statuses[0]! }));
    return read;
  };

  it.each([
    ["a sweep", finalStatuses.sweep, ["queued", "processing", "swept"], "swept"],
    ["a sweep rejected before sending", finalStatuses.sweep, ["queued", "rejected"], "rejected"],
    ["a revocation", finalStatuses.revocation, ["queued", "processing", "revoked"], "revoked"],
    ["a hot wallet", finalStatuses.hotWallet, ["pending", "active"], "active"],
  ])("reads %s until it is final", async (_what, final, statuses, expected) => {
    const read = reads(...statuses);
    await expect(pollUntil(read, final, "it", { intervalMs: 1 })).resolves.toEqual({ status: expected });
    expect(read).toHaveBeenCalledTimes(statuses.length);
  });

  it("gives up with the object as last read", async () => {
    const wait = pollUntil(reads("processing"), finalStatuses.sweep, "sweep s1", { intervalMs: 5, timeoutMs: 20 });
    await expect(wait).rejects.toThrow(WaitTimeoutError);
    await expect(wait).rejects.toMatchObject({ last: { status: "processing" }, message: "sweep s1 is still processing after 20 ms" });
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    const wait = pollUntil(reads("queued"), finalStatuses.sweep, "it", { intervalMs: 10_000, signal: controller.signal });
    controller.abort(new Error("stopped"));
    await expect(wait).rejects.toThrow("stopped");
  });
});
