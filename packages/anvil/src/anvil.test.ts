import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { ChildProcess } from "node:child_process";
import { announcedPort, rpcAnswers, startAnvil, type AnvilNode } from "./anvil";

/** A child process as far as announcedPort reads one: its stdout and its exit. */
function fakeChild(): ChildProcess & { stdout: PassThrough } {
  return Object.assign(new EventEmitter(), { stdout: new PassThrough(), signalCode: null }) as unknown as ChildProcess & { stdout: PassThrough };
}

describe("announcedPort", () => {
  const LISTENING = /^Listening on .*:(\d+)\s*$/m;

  it.each<[string, string[], number]>([
    ["one line", ["Listening on 127.0.0.1:40123\n"], 40123],
    ["after a banner", ["Available Accounts\n==================\n(0) 0xf39F…\n\n", "Listening on 127.0.0.1:40124\n"], 40124],
    ["a line cut between chunks", ["Listening on 127.0.0.1:4", "0125\n"], 40125],
    ["an IPv6 address", ["Listening on [::1]:40126\n"], 40126],
  ])("reads the port off %s", async (_, chunks, port) => {
    const child = fakeChild();
    const announced = announcedPort(child, LISTENING, Date.now() + 5_000);
    for (const chunk of chunks) child.stdout.write(chunk);
    await expect(announced).resolves.toBe(port);
  });

  it("rejects when the node exits before it listened (its port taken, say)", async () => {
    const child = fakeChild();
    const announced = announcedPort(child, LISTENING, Date.now() + 5_000);
    child.stdout.write("Listening on 127.0.0.1:\n");
    child.emit("exit", 1);
    await expect(announced).rejects.toThrow("exited with 1 before it listened");
  });

  it("rejects at the deadline when the node never says", async () => {
    const child = fakeChild();
    await expect(announcedPort(child, LISTENING, Date.now() + 100)).rejects.toThrow("did not say which port it listens on");
  });

  it("drains what the node prints after, so that its pipe never fills", async () => {
    const child = fakeChild();
    const announced = announcedPort(child, LISTENING, Date.now() + 5_000);
    child.stdout.write("Listening on 127.0.0.1:40127\n");
    await announced;
    for (let i = 0; i < 2_000; i++) child.stdout.write("eth_blockNumber\n".repeat(64));
    await new Promise((resolve) => setImmediate(resolve));
    expect(child.stdout.readableFlowing).toBe(true);
    expect(child.stdout.readableLength).toBe(0);
  });
});

describe("startAnvil", () => {
  let first: AnvilNode;
  beforeAll(async () => {
    first = await startAnvil({ chainId: 97 });
  }, 30_000);
  afterAll(() => first?.stop());

  it("without a port, answers on the one it said it bound", async () => {
    expect(first.port).toBeGreaterThan(0);
    expect(await rpcAnswers(first.rpcUrl, 97)).toBe(true);
  });

  it("on a port another node of the same chain holds, fails instead of passing that node off as its own", async () => {
    await expect(startAnvil({ chainId: 97, port: first.port })).rejects.toThrow(/anvil exited with/);
    expect(await rpcAnswers(first.rpcUrl, 97)).toBe(true);
  }, 30_000);

  it("a detached anvil, which says nothing, must be given its port", async () => {
    await expect(startAnvil({ chainId: 97, detached: true })).rejects.toThrow("a detached anvil needs a port");
  });
});
