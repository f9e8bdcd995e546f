import { spawn } from "node:child_process";
import { Client } from "pg";
import { postgresCpuSeconds, processTreeCpuSeconds } from "./process-cpu";

const cpuMs = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
/** Spins until this process used `ms` more of CPU (not of wall time: the machine may be busy). */
const spin = (ms: number) => {
  for (const end = cpuMs() + ms; cpuMs() < end; );
};

describe("processTreeCpuSeconds", () => {
  it("counts a process's own CPU and its children's", async () => {
    const ownCpuSeconds = () => cpuMs() / 1000;
    const before = processTreeCpuSeconds(process.pid);
    const ownBefore = ownCpuSeconds();
    spin(300);
    expect(processTreeCpuSeconds(process.pid) - before).toBeGreaterThanOrEqual(ownCpuSeconds() - ownBefore - 0.02);

    const child = spawn(process.execPath, ["-e", `const cpuMs = ${cpuMs.toString()}; const spin = ${spin.toString()}; spin(400); console.log("spun"); setTimeout(() => {}, 60_000);`], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise((resolve) => child.stdout!.once("data", resolve));
      const childSeconds = processTreeCpuSeconds(child.pid!);
      expect(childSeconds).toBeGreaterThanOrEqual(0.38);
      // The child is in this process's tree: both counted.
      expect(processTreeCpuSeconds(process.pid)).toBeGreaterThanOrEqual(ownCpuSeconds() - 0.02 + childSeconds);
    } finally {
      child.kill();
    }
  });
});

describe("postgresCpuSeconds", () => {
  it("counts what a backend spent, also once its connection has ended", async () => {
    const before = postgresCpuSeconds();
    const client = new Client({ connectionString: "postgresql://postgres@127.0.0.1:5432/postgres" });
    await client.connect();
    await client.query("SELECT sum(i) FROM generate_series(1, 5000000) AS i");
    await client.end();
    // The ended backend's CPU moves to the postmaster's reaped children's times once it is reaped.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(postgresCpuSeconds() - before).toBeGreaterThanOrEqual(0.2);
  });
});
