/**
 * No import circle anywhere in the tree, `import type` included (.dependency-cruiser.cjs says why):
 * dependency-cruiser follows every import, the workspace's packages through their links, and names
 * each circle it meets.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "..");
const roots = ["services", "packages", "test", "examples", "bench"];

interface Cruise {
  summary: { violations: Array<{ rule: { name: string }; from: string; cycle?: Array<{ name: string }> }> };
}

describe("import circles", () => {
  it("none anywhere in the tree", () => {
    const run = spawnSync(path.join(root, "node_modules/.bin/depcruise"), ["--config", ".dependency-cruiser.cjs", "--output-type", "json", ...roots], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    // Exit status 1 is "violations found"; anything else, or no JSON, is the cruise itself failing.
    if (!run.stdout) throw new Error(`dependency-cruiser did not run (status ${run.status}): ${run.stderr}`);
    const cruise = JSON.parse(run.stdout) as Cruise;
    const circles = cruise.summary.violations.filter((v) => v.rule.name === "no-circular").map((v) => [v.from, ...(v.cycle ?? []).map((step) => step.name)].join(" → "));
    expect(circles).toEqual([]);
  }, 180_000);
});
