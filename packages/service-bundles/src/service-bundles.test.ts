import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot, serviceBundle, SERVICE_NAMES, sweepctlBundle } from "./service-bundles";

const requiresOf = (name: (typeof SERVICE_NAMES)[number]) => [...readFileSync(serviceBundle(name), "utf8").matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);

// The bundles the jest run's global setup built (never built again here: other workers' stacks start from them meanwhile).
describe("the services' bundles", () => {
  it.each(SERVICE_NAMES)("%s: only the workspace's TypeScript is in it; every package is required from the file Node resolves from the source", (name) => {
    const required = requiresOf(name);
    expect(required.length).toBeGreaterThan(0);
    for (const file of required) {
      if (file.startsWith("node:")) continue;
      expect([file, path.isAbsolute(file) && file.startsWith(path.join(repoRoot, "node_modules") + path.sep)]).toEqual([file, true]);
    }
    expect(required.some((file) => file.includes("/@sweep/") || file.endsWith(".ts"))).toBe(false);
  });

  it("requires the same Prisma client and ethers the source does, and keeps __dirname the source file's", () => {
    const required = requiresOf("chain-sender");
    expect(required).toContain(require.resolve("@prisma/client", { paths: [path.join(repoRoot, "packages/db/src")] }));
    expect(required).toContain(require.resolve("ethers", { paths: [path.join(repoRoot, "services/chain-sender/src")] }));
    // The contract artifacts are read next to @sweep/contracts' source, not next to the bundle.
    expect(readFileSync(serviceBundle("chain-sender"), "utf8")).toContain(JSON.stringify(path.join(repoRoot, "packages/contracts/src")));
  });

  it("sweepctl's: a workspace package's require.resolve still looks from that package's source (@sweep/anvil finds anvil)", () => {
    const bundle = readFileSync(sweepctlBundle(), "utf8");
    expect(bundle).toContain(`createRequire(${JSON.stringify(path.join(repoRoot, "packages/anvil/src/anvil-binary.ts"))}).resolve("@foundry-rs/anvil/package.json")`);
    expect(bundle).not.toMatch(/[^.\w]require\.resolve\(/);
  });
});
