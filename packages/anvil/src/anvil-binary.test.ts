import fs from "node:fs";
import { anvilBinary, anvilPackage } from "./anvil-binary";

const wrapper = JSON.parse(fs.readFileSync(require.resolve("@foundry-rs/anvil/package.json"), "utf8")) as { version: string; optionalDependencies: Record<string, string> };

describe("anvilPackage", () => {
  it.each([
    ["linux", "x64", "@foundry-rs/anvil-linux-amd64"],
    ["linux", "arm64", "@foundry-rs/anvil-linux-arm64"],
    ["darwin", "x64", "@foundry-rs/anvil-darwin-amd64"],
    ["darwin", "arm64", "@foundry-rs/anvil-darwin-arm64"],
    ["win32", "x64", undefined],
    ["linux", "ia32", undefined],
    ["freebsd", "x64", undefined],
  ])("%s-%s: %s", (platform, arch, name) => {
    expect(anvilPackage(platform, arch)).toBe(name);
  });

  it("names only packages that @foundry-rs/anvil lists as its platform dependencies", () => {
    for (const platform of ["linux", "darwin"]) {
      for (const arch of ["x64", "arm64"]) expect(Object.keys(wrapper.optionalDependencies)).toContain(anvilPackage(platform, arch));
    }
  });
});

describe("anvilBinary", () => {
  it("finds this machine's binary in its platform package", () => {
    const binary = anvilBinary({});
    expect(binary).toContain(`${anvilPackage(process.platform, process.arch)}/bin/anvil`);
    expect(() => fs.accessSync(binary, fs.constants.X_OK)).not.toThrow();
  });

  it("takes ANVIL_BINARY over the package", () => {
    expect(anvilBinary({ ANVIL_BINARY: "/opt/foundry/bin/anvil" })).toBe("/opt/foundry/bin/anvil");
  });

  it("says what to do where the lockfile installed no binary for the platform", () => {
    // pnpm installs the current platform's package only: the other operating system's is never there.
    const other = process.platform === "linux" ? "darwin" : "linux";
    expect(() => anvilBinary({}, other, "arm64")).toThrow(
      `@foundry-rs/anvil-${other}-arm64@${wrapper.version} is not installed: pnpm-lock.yaml lacks it. set ANVIL_BINARY to an anvil ${wrapper.version}`,
    );
    expect(() => anvilBinary({}, "win32", "x64")).toThrow(`no anvil package for win32-x64: set ANVIL_BINARY`);
  });
});
