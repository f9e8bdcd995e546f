import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "@sweep/db";
import { runSweepctl } from "@sweep/testkit";

const sweepctl = (...args: string[]) => runSweepctl(args);

describe("sweepctl as a process", () => {
  it("creates a partner and prints JSON on stdout, the development key warning on stderr", async () => {
    const { code, stdout, stderr } = await sweepctl("partner", "create", "--name", "CLI process", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      partner_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      api_key: expect.stringMatching(/^svc_test_/),
      gas_wallet: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    if (!process.env.KEY_ENCRYPTION_KEY) expect(stderr).toMatch(/WARNING: KEY_ENCRYPTION_KEY is not set/);
  });

  it("runs from the source as `pnpm sweepctl` runs it (tsx), as the tests run its bundle", async () => {
    const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
    const { stdout } = await promisify(execFile)(tsx, ["packages/cli/src/main.ts", "partner", "create", "--name", "CLI from source", "--json"], { cwd: repoRoot });
    expect(JSON.parse(stdout)).toMatchObject({ partner_id: expect.stringMatching(/^[0-9a-f-]{36}$/), api_key: expect.stringMatching(/^svc_test_/) });
  });

  it.each([
    ["a malformed partner id", ["partner", "disable", "not-an-id"], /^sweepctl: not a partner id: "not-an-id"/],
    ["an unknown partner id", ["partner", "enable", "00000000-0000-4000-8000-000000000000"], /^sweepctl: no partner with id/],
    ["a string that is no key", ["key", "revoke", "abc"], /^sweepctl: not an API key, key id or key prefix/],
  ])("answers %s with one line on stderr and exit code 1", async (_what, args, message) => {
    const { code, stdout, stderr } = await sweepctl(...args, "--json");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("charges a partner and prints the ledger entry as JSON; refuses a float amount with exit code 1", async () => {
    const created = JSON.parse((await sweepctl("partner", "create", "--name", "CLI ledger", "--json")).stdout) as { partner_id: string };
    const charge = await sweepctl("ledger", "charge", created.partner_id, "--chain", "11155111", "--amount", "2500", "--note", "setup fee", "--json");
    expect(charge.code).toBe(0);
    expect(JSON.parse(charge.stdout)).toMatchObject({ partner_id: created.partner_id, chain_id: 11155111, kind: "fee_charge", amount: "-2500", note: "setup fee", tx_hash: null, sweep_id: null });

    const float = await sweepctl("ledger", "credit", created.partner_id, "--chain", "11155111", "--amount", "1.5", "--note", "refund");
    expect(float).toMatchObject({ code: 1, stdout: "" });
    expect(float.stderr).toMatch(/^sweepctl: --amount takes a positive whole number of wei/);
  });

  it("answers a malformed command line with exit code 2", async () => {
    const { code, stderr } = await sweepctl("partner", "disable");
    expect(code).toBe(2);
    expect(stderr.trim()).toBe("error: missing required argument 'partner-id'");
  });

  it("prints the devnet's chains and tokens", async () => {
    const { code, stdout } = await sweepctl("devnet", "info", "--json");
    expect(code).toBe(0);
    const info = JSON.parse(stdout) as { chains: Array<{ chain_id: number; rpc_url: string; tokens: Array<{ ticker: string; decimals: number }> }> };
    expect(info.chains.map((c) => [c.chain_id, c.tokens.map((t) => `${t.ticker}/${t.decimals}`)])).toEqual([
      [11155111, ["USDT/6"]],
      [97, ["USDT/18"]],
    ]);
  });
});
