import { execFile } from "node:child_process";
import { repoRoot } from "@sweep/db";
import { sweepctlBundle } from "@sweep/service-bundles";

/**
 * sweepctl as a process, from its bundle (built by the jest run's global setup, as the services'); `pnpm
 * sweepctl` runs the same source through tsx. `env` adds to this process's environment.
 */
export function runSweepctl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--enable-source-maps", sweepctlBundle(), ...args], { cwd: repoRoot, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}
