import { execFile } from "node:child_process";
import path from "node:path";
import { repoRoot } from "@sweep/db";

/** sweepctl as operators run it (`pnpm sweepctl` runs the same tsx command); `env` adds to this process's environment. */
export function runSweepctl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(path.join(repoRoot, "node_modules/.bin/tsx"), ["packages/cli/src/main.ts", ...args], { cwd: repoRoot, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}
