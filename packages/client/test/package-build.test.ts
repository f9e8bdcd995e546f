import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Wallet } from "ethers";
import { signAuthorization } from "../src";

const clientRoot = path.join(__dirname, "..");
const repoRoot = path.join(clientRoot, "..", "..");
const bin = (name: string) => path.join(clientRoot, "node_modules", ".bin", name);
const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: "utf8", stdio: "pipe" });

describe("@sweep/client as published", () => {
  it("has generated types that match the OpenAPI document the API serves (pnpm generate:client writes them)", () => {
    const check = spawnSync(bin("tsx"), ["scripts/generate.ts", "--check"], { cwd: clientRoot, encoding: "utf8" });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: "" });
  });

  describe("its tarball (pnpm pack, outside the workspace), installed with npm into an empty project as a partner would", () => {
    const packDir = mkdtempSync(path.join(os.tmpdir(), "sweep-client-pack-"));
    const alone = mkdtempSync(path.join(os.tmpdir(), "sweep-client-alone-"));
    const project = mkdtempSync(path.join(os.tmpdir(), "sweep-client-partner-"));
    const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
    const terms = { chainId: 11155111, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", nonce: 0 };
    let packedManifest = "";

    // What a partner writes, once loaded with require() and once with import: nothing but the
    // package, ethers and node, no network.
    const use = `async function main() {
      const client = new SweepClient({ baseUrl: "http://127.0.0.1:1", apiKey: "svc_test_x" });
      const authorization = await signAuthorization(new Wallet(${JSON.stringify(key)}), ${JSON.stringify(terms)});
      const secret = "whsec_partner";
      const body = JSON.stringify({ id: "4f9c0a8e-2d6b-4b7e-9a55-0c1f3e2d4b6a", type: "webhook.test", created_at: new Date().toISOString(), data: { message: "hello" } });
      const t = Math.floor(Date.now() / 1000);
      const headers = { "service-signature": "t=" + t + ",v1=" + createHmac("sha256", secret).update(t + "." + body).digest("hex") };
      const event = verifyWebhook(body, headers, secret);
      let refused;
      try { verifyWebhook(body, headers, "whsec_other"); } catch (error) { refused = error instanceof WebhookVerificationError && error.code; }
      return { authorization, event: event.data, refused, sweeps: typeof client.sweeps.list };
    }
    main().then((result) => console.log(JSON.stringify(result)));`;
    const names = "{ SweepClient, signAuthorization, verifyWebhook, WebhookVerificationError }";

    // Type-checked against the package's own declarations (the .ts as CommonJS, the .mts as ESM):
    // its addresses go to `0x${string}` without a cast, and a partner's plain string goes into a request.
    const typed = `import { SweepClient, signAuthorization, type Sweep, type SweepRequest } from "@sweep/client";
    import { Wallet } from "ethers";

    type Hex = \`0x\${string}\`;

    export async function sweepAgain(client: SweepClient, wallet: Wallet, sweep: Sweep): Promise<Hex[]> {
      const account: Hex = sweep.account;
      const hash: Hex | undefined = sweep.tx_hash;
      const authorization = await signAuthorization(wallet, { chainId: sweep.chain_id, address: sweep.hot_wallet, nonce: 0 });
      const r: Hex = authorization.r;
      const request: SweepRequest = { chain_id: sweep.chain_id, hot_wallet: sweep.hot_wallet, account: wallet.address, token: sweep.token, authorization };
      const again = await client.sweeps.create(request);
      // @ts-expect-error a response's address is \`0x\${string}\`, not any string (nor any: the declarations resolved)
      const notAnAddress: Sweep["account"] = "deposit";
      return [account, hash ?? r, again.hot_wallet, notAnAddress];
    }
    `;

    beforeAll(() => {
      // Packed from a copy of the package's folder outside the workspace, with its own node_modules
      // (its devDependencies build it): prepack builds dist/ from the committed generated file.
      cpSync(clientRoot, alone, { recursive: true, filter: (from) => !/^(node_modules|dist)$/.test(path.relative(clientRoot, from)) });
      symlinkSync(path.join(clientRoot, "node_modules"), path.join(alone, "node_modules"));
      run("pnpm", ["pack", "--pack-destination", packDir], alone);
      const tarball = path.join(packDir, readdirSync(packDir).find((name) => name.endsWith(".tgz"))!);
      packedManifest = run("tar", ["-xOzf", tarball, "package/package.json"], packDir);
      run("npm", ["init", "-y"], project);
      const { ethers } = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;
      run("npm", ["install", tarball, `ethers@${ethers}`, "--no-audit", "--no-fund"], project);
      writeFileSync(path.join(project, "use.cjs"), `const ${names} = require("@sweep/client");\nconst { Wallet } = require("ethers");\nconst { createHmac } = require("node:crypto");\n${use}`);
      writeFileSync(path.join(project, "use.mjs"), `import ${names} from "@sweep/client";\nimport { Wallet } from "ethers";\nimport { createHmac } from "node:crypto";\n${use}`);
      writeFileSync(path.join(project, "sweep-again.ts"), typed);
      writeFileSync(path.join(project, "sweep-again.mts"), typed);
      const compilerOptions = { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext" };
      writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["sweep-again.ts", "sweep-again.mts"] }));
    }, 180_000);

    afterAll(() => {
      rmSync(packDir, { recursive: true, force: true });
      rmSync(alone, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    });

    it("has no workspace-only dependency or script in its package.json", () => {
      const manifest = JSON.parse(packedManifest) as Record<string, Record<string, string> | undefined>;
      const dependencies = [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies, manifest.optionalDependencies].flatMap((deps) => Object.keys(deps ?? {}));
      expect(packedManifest).not.toContain("workspace:");
      expect(dependencies.filter((name) => name.startsWith("@sweep/"))).toEqual([]);
      // Only the build, which needs nothing but the package's own files and devDependencies.
      expect(manifest.scripts).toEqual({ build: "tsup" });
    });

    it.each([
      ["require()", "use.cjs"],
      ["import", "use.mjs"],
    ])("loads with %s and signs an authorization and verifies a webhook", async (_how, script) => {
      const printed = JSON.parse(run(process.execPath, [script], project));
      expect(printed).toEqual({
        authorization: await signAuthorization(new Wallet(key), terms),
        event: { message: "hello" },
        refused: "bad_signature",
        sweeps: "function",
      });
    });

    it("type-checks a partner's TypeScript, CommonJS and ESM, with its addresses as `0x${string}`", () => {
      const check = spawnSync(path.join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", project], { cwd: project, encoding: "utf8" });
      expect({ status: check.status, output: check.stdout + check.stderr }).toEqual({ status: 0, output: "" });
    }, 120_000);
  });
});
