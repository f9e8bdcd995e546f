import { spawn } from "node:child_process";
import { processTreeCpuSeconds } from "./process-cpu";

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
