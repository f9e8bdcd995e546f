import { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { superviseServices, type RestartPolicy } from "./supervise-services";

/**
 * A stand-in service: notes each start and each signal it receives in <name>.log; its first
 * `failures` runs exit 1 at once (`always`: every run), later ones run until a signal and exit 0.
 */
const serviceScript = `
const fs = require("node:fs");
const [name, failures] = process.argv.slice(2);
const log = name + ".log";
fs.appendFileSync(log, "start\\n");
const starts = fs.readFileSync(log, "utf8").split("\\n").filter((l) => l === "start").length;
if (failures === "always" || starts <= Number(failures)) process.exit(1);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => { fs.appendFileSync(log, signal + "\\n"); process.exit(0); });
setInterval(() => {}, 1000);
`;

async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("superviseServices", () => {
  let dir: string;
  let output: string;
  let stopSignals: EventEmitter;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-supervise-"));
    fs.writeFileSync(path.join(dir, "service.js"), serviceScript);
    output = "";
    stopSignals = new EventEmitter();
  });

  /** The services by name, each failing its first `failures` runs. */
  const run = (failures: Record<string, number | "always">, restart: RestartPolicy) => {
    const outputStream = new PassThrough();
    outputStream.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const services = Object.entries(failures).map(([name, n]) => ({
      name,
      // No quotes: concurrently strips a pair around the whole command.
      command: `${process.execPath} service.js ${name} ${n}`,
    }));
    return superviseServices(services, { cwd: dir, outputStream, stopSignals, restart });
  };
  const logOf = (name: string) => {
    const file = path.join(dir, `${name}.log`);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
  };
  const settled = async (exitCode: Promise<number>) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("the services did not all exit")), 20_000)));
    try {
      return await Promise.race([exitCode, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  it("restarts a failed service within its tries, and a signal then stops every service once, with exit code 0", async () => {
    const stack = run({ flaky: 2, steady: 0 }, { tries: 2, delay: 20 });
    await waitFor("the third run of flaky", () => logOf("flaky").length === 3 && logOf("steady").length === 1);
    expect(stack.stopping.aborted).toBe(false);

    stopSignals.emit("SIGTERM", "SIGTERM");
    await expect(settled(stack.exitCode)).resolves.toBe(0);
    expect(logOf("flaky")).toEqual(["start", "start", "start", "SIGTERM"]);
    expect(logOf("steady")).toEqual(["start", "SIGTERM"]);
    expect(output.match(/restarted/g)).toHaveLength(2);
  });

  it("gives up on a service that fails past its tries: stops the others, restarts none of them, and exits 1", async () => {
    // Restarts far enough apart that steady is up, its signal handlers set, before broken's last failure.
    const stack = run({ broken: "always", steady: 0 }, { tries: 2, delay: 300 });
    await expect(settled(stack.exitCode)).resolves.toBe(1);
    expect(stack.stopping.aborted).toBe(true);
    expect(logOf("broken")).toEqual(["start", "start", "start"]);
    expect(logOf("steady")).toEqual(["start", "SIGTERM"]);
    expect(output).toContain("broken failed again after 2 restarts: stopping the stack");
  });

  it("runs no restart that falls due after the stack began stopping", async () => {
    const stack = run({ flaky: 1, steady: 0 }, { tries: 2, delay: 1_000 });
    // steady up too: its signal handlers are set in the same tick as its start is noted.
    await waitFor("flaky's first failure, and steady up", () => output.includes("exited with code 1") && logOf("steady").length === 1);
    stack.stop();
    await expect(settled(stack.exitCode)).resolves.toBe(0);
    expect(logOf("flaky")).toEqual(["start"]);
    expect(logOf("steady")).toEqual(["start", "SIGTERM"]);
    expect(output).toContain("not restarted: the stack is stopping");
  });

  it("runs a service with its own variables over the stack's environment", async () => {
    fs.writeFileSync(path.join(dir, "env.js"), `require("node:fs").writeFileSync("env.json", JSON.stringify([process.env.WEBHOOK_ALLOW_PRIVATE, process.env.PATH === ${JSON.stringify(process.env.PATH)}]));`);
    const outputStream = new PassThrough();
    const stack = superviseServices([{ name: "env", command: `${process.execPath} env.js`, env: { WEBHOOK_ALLOW_PRIVATE: "true" } }], { cwd: dir, outputStream, stopSignals, restart: { tries: 0, delay: 0 } });
    await expect(settled(stack.exitCode)).resolves.toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "env.json"), "utf8"))).toEqual(["true", true]);
  });
});
