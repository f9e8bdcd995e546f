import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSoftHsmToken, removeToken, tokenDirectory } from "./softhsm-token";

// Three jest workers and the stories' services share one run's token directory. A process that lists
// the tokens while softhsm2-util deletes one can create a lock file in its directory between the
// files' removal and the directory's, and softhsm2-util then fails with the directory left behind.

describe("removing a test's SoftHSM2 token", () => {
  const scratch = mkdtempSync(join(tmpdir(), "softhsm-token-test-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const tokens = () => tokenDirectory(process.env.SOFTHSM2_CONF!);
  const slots = () => execFileSync("softhsm2-util", ["--show-slots"], { encoding: "utf8" });

  it("deletes it with softhsm2-util", () => {
    const token = createSoftHsmToken();
    expect(slots()).toContain(token.config.tokenLabel);
    token.remove();
    expect(slots()).not.toContain(token.config.tokenLabel);
  });

  it("removes the directory a lock file kept when softhsm2-util could not", () => {
    const left = join(tokens(), "0f0f0f0f-race");
    mkdirSync(left);
    writeFileSync(join(left, "token.lock"), "");
    removeToken(process.env.SOFTHSM2_CONF!, "any", () => {
      throw new Error(`Command failed: softhsm2-util --delete-token --token any\nERROR: Could not delete the directory: ${left}`);
    });
    expect(existsSync(left)).toBe(false);
  });

  it.each([
    ["another failure", "ERROR: Could not find a token using --token"],
    ["a directory outside the token directory", `ERROR: Could not delete the directory: ${mkdtempSync(join(scratch, "not-a-token-"))}`],
  ])("passes %s on, touching nothing", (_what, words) => {
    const outside = /directory: (\S+)/.exec(words)?.[1];
    expect(() =>
      removeToken(process.env.SOFTHSM2_CONF!, "any", () => {
        throw new Error(`Command failed: softhsm2-util --delete-token --token any\n${words}`);
      }),
    ).toThrow(words);
    if (outside) expect(existsSync(outside)).toBe(true);
  });

  it("reads the token directory its configuration names", () => {
    const conf = join(scratch, "softhsm2.conf");
    writeFileSync(conf, "objectstore.backend = file\ndirectories.tokendir = /var/lib/tokens \nlog.level = ERROR\n");
    expect(tokenDirectory(conf)).toBe("/var/lib/tokens");
  });
});
