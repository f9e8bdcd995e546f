import { readFileSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";

/** The services, each bundled from `services/<name>/src/main.ts` to `services/<name>/dist/main.js`. */
export const SERVICE_NAMES = ["api-gateway", "batcher", "chain-sender", "ledger", "webhook-dispatcher"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const repoRoot = path.resolve(__dirname, "../../..");

/** A service's bundle, the file `node` runs (pnpm start, the tests' stacks, the image). */
export function serviceBundle(name: ServiceName, root = repoRoot): string {
  return path.join(root, "services", name, "dist", "main.js");
}

/** The arguments `node` runs a service with: its bundle, stack traces mapped back to the TypeScript. */
export function serviceNodeArgs(name: ServiceName, root = repoRoot): string[] {
  return ["--enable-source-maps", serviceBundle(name, root)];
}

/**
 * sweepctl's bundle (`packages/cli/dist/main.js`), which the tests run: a start cost about 2.6 CPU-seconds
 * through tsx and a test run starts sweepctl a few dozen times. `pnpm sweepctl` stays on tsx, so an
 * operator's command never runs an older build of an edited source.
 */
export function sweepctlBundle(root = repoRoot): string {
  return path.join(root, "packages", "cli", "dist", "main.js");
}

/**
 * Bundles each service's TypeScript (its own and the workspace packages' it imports), and sweepctl's, into one
 * CommonJS file each, so a process starts without compiling TypeScript: with tsx as a loader a start
 * cost about 2.7 CPU-seconds here, bundled about 1.7, and a test run starts services some 170 times.
 *
 * What is not workspace TypeScript stays a `require` of the very file the source would have loaded
 * (resolved from the importing file, the way Node resolves it there), so the bundle runs the same
 * packages, native addons and Prisma engine from the same places as tsx does. `__dirname`,
 * `__filename` and `require.resolve` keep meaning the source file's (contract artifacts, the repository
 * root, the anvil and hardhat packages a workspace package finds from where it is).
 */
export async function buildServiceBundles(root = repoRoot, names: readonly ServiceName[] = SERVICE_NAMES): Promise<void> {
  await Promise.all([
    ...names.map((name) => bundle(root, path.join(root, "services", name, "src", "main.ts"), serviceBundle(name, root))),
    bundle(root, path.join(root, "packages", "cli", "src", "main.ts"), sweepctlBundle(root)),
  ]);
}

async function bundle(root: string, entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    // Stack traces point into the TypeScript (node --enable-source-maps) by file and line; the map leaves the
    // sources out, a quarter of the size for each start to parse.
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
    plugins: [workspaceOnly(root)],
  });
}

function workspaceOnly(root: string): Plugin {
  const workspace = (file: string) => file.startsWith(root + path.sep) && !file.split(path.sep).includes("node_modules");
  return {
    name: "workspace-only",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("@sweep/")) return undefined;
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const resolved = require.resolve(args.path, { paths: [args.resolveDir] });
        // A built-in module resolves to its own name.
        return { path: path.isAbsolute(resolved) ? resolved : args.path, external: true };
      });
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!workspace(args.path)) return undefined;
        const source = readFileSync(args.path, "utf8");
        const contents = source
          .replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path)))
          .replace(/\b__filename\b/g, JSON.stringify(args.path))
          .replace(/\brequire\.resolve\(/g, `require("node:module").createRequire(${JSON.stringify(args.path)}).resolve(`);
        return { contents, loader: "ts" };
      });
    },
  };
}
