import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";

const clientRoot = path.join(__dirname, "..");
const bin = (name: string) => path.join(clientRoot, "node_modules", ".bin", name);

describe("@sweep/client as published", () => {
  it("has generated types that match the OpenAPI document the API serves (pnpm build writes them)", () => {
    const check = spawnSync(bin("tsx"), ["scripts/generate.ts", "--check"], { cwd: clientRoot, encoding: "utf8" });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: "" });
  });

  describe("its ESM and CommonJS builds", () => {
    // Inside the package (dist/ is ignored by git), so that the builds find its dependencies.
    const distDir = path.join(clientRoot, "dist");
    mkdirSync(distDir, { recursive: true });
    const outDir = mkdtempSync(path.join(distDir, "check-"));
    beforeAll(() => execFileSync(bin("tsup"), [], { cwd: clientRoot, stdio: "pipe", env: { ...process.env, CLIENT_OUT_DIR: outDir } }), 60_000);
    afterAll(() => rmSync(outDir, { recursive: true, force: true }));

    // Each loads its build in a plain node and uses it.
    const use = `const client = new m.SweepClient({ baseUrl: "http://127.0.0.1:1", apiKey: "svc_test_x" });
      const digest = m.authorizationDigest({ chainId: 1, address: "0x${"11".repeat(20)}", nonce: 0 });
      console.log(JSON.stringify({ exports: Object.keys(m).sort(), digest, sweeps: typeof client.sweeps.list }));`;

    it.each([
      ["require()", ["-e", `const m = require(${JSON.stringify(path.join(outDir, "index.js"))}); ${use}`]],
      ["import", ["--input-type=module", "-e", `const m = await import(${JSON.stringify(path.join(outDir, "index.mjs"))}); ${use}`]],
    ])("load with %s and work", (_how, args) => {
      const printed = JSON.parse(execFileSync(process.execPath, args, { cwd: clientRoot, encoding: "utf8" }));
      expect(printed.exports).toEqual(expect.arrayContaining(["SweepClient", "SweepApiError", "signAuthorization", "authorizationDigest", "verifyWebhook", "WebhookVerificationError", "WaitTimeoutError"]));
      expect(printed.digest).toMatch(/^0x[0-9a-f]{64}$/);
      expect(printed.sweeps).toBe("function");
    });
  });
});
