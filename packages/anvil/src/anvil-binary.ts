import fs from "node:fs";
import path from "node:path";

/**
 * The npm package that ships anvil for a platform, named as @foundry-rs/anvil names its optional
 * dependencies; undefined where the stack cannot run (Windows has no process groups or /bin/sh).
 */
export function anvilPackage(platform: string, arch: string): string | undefined {
  const os = platform === "linux" || platform === "darwin" ? platform : undefined;
  const cpu = ({ x64: "amd64", arm64: "arm64" } as Record<string, string | undefined>)[arch];
  return os && cpu ? `@foundry-rs/anvil-${os}-${cpu}` : undefined;
}

/**
 * The native anvil binary: ANVIL_BINARY when set, else the one the @foundry-rs/anvil npm package
 * installs as its platform dependency (no download). Spawned directly, not through the package's
 * Node wrapper, so that signals reach anvil itself and it writes its state file on exit.
 */
export function anvilBinary(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform, arch: string = process.arch): string {
  if (env.ANVIL_BINARY) return env.ANVIL_BINARY;
  const wrapper = require.resolve("@foundry-rs/anvil/package.json");
  const { version } = JSON.parse(fs.readFileSync(wrapper, "utf8")) as { version: string };
  const instead = `set ANVIL_BINARY to an anvil ${version} (Foundry's foundryup installs one)`;
  const name = anvilPackage(platform, arch);
  if (!name) throw new Error(`no anvil package for ${platform}-${arch}: ${instead}`);
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`, { paths: [path.dirname(wrapper)] })), "bin", "anvil");
  } catch {
    // pnpm installs only what the lockfile names, and the lockfile names only what its registry served.
    throw new Error(
      `${name}@${version} is not installed: pnpm-lock.yaml lacks it. ${instead}, or run \`pnpm update @foundry-rs/anvil\` against a registry that has it`,
    );
  }
}
