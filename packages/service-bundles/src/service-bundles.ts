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
 * Bundles each service's TypeScript (its own and the workspace packages' it imports) into one
 * CommonJS file, so a process starts without compiling TypeScript: with tsx as a loader a start
 * cost about 2.7 CPU-seconds here, bundled about 1.7, and a test run starts services some 170 times.
 *
 * What is not workspace TypeScript stays a `require` of the very file the source would have loaded
 * (resolved from the importing file, the way Node resolves it there), so the bundle runs the same
 * packages, native addons and Prisma engine from the same places as tsx does. `__dirname` and
 * `__filename` keep meaning the source file's (contract artifacts, the repository root).
 */
export async function buildServiceBundles(root = repoRoot, names: readonly ServiceName[] = SERVICE_NAMES): Promise<void> {
  await Promise.all(
    names.map((name) =>
      build({
        entryPoints: [path.join(root, "services", name, "src", "main.ts")],
        outfile: serviceBundle(name, root),
        bundle: true,
        platform: "node",
        target: "node20",
        format: "cjs",
        // Stack traces point into the TypeScript (node --enable-source-maps).
        sourcemap: "linked",
        sourcesContent: false,
        logLevel: "warning",
        plugins: [workspaceOnly(root)],
      }),
    ),
  );
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
        const contents = source.replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path))).replace(/\b__filename\b/g, JSON.stringify(args.path));
        return { contents, loader: "ts" };
      });
    },
  };
}
