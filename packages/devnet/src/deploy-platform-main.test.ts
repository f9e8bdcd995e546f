import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startAnvil, type AnvilNode } from "@sweep/anvil";
import { createProvider } from "@sweep/rpc";
import { environmentChainIds, factoryAddress } from "@sweep/chains";
import { repoRoot } from "@sweep/db";
import { chainEndpoints } from "./chains";

const run = promisify(execFile);
const main = path.join(__dirname, "deploy-platform-main.ts");

// What docker-compose.yml's platform-contracts job does: chains started elsewhere, reached by RPC_URL_<chain_id>.
describe("deploy-platform-main", () => {
  const anvils: AnvilNode[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    for (const chainId of environmentChainIds("testnet")) anvils.push(await startAnvil({ chainId }));
    env = Object.fromEntries(anvils.map((a) => [`RPC_URL_${a.chainId}`, a.rpcUrl]));
  });
  afterAll(() => Promise.all(anvils.map((a) => a.stop())));

  const deploy = (extra: Record<string, string> = {}) =>
    run(process.execPath, ["--import", "tsx", main], { cwd: repoRoot, env: { ...process.env, SERVICE_ENV: "testnet", ...env, ...extra } });

  it("deploys the platform contracts to every testnet chain at RPC_URL_<chain_id>, and nothing the second time", async () => {
    const first = await deploy();
    const endpoints = chainEndpoints("testnet", env);
    for (const { chain, rpcUrl } of endpoints) {
      const provider = createProvider(rpcUrl, chain.chainId);
      try {
        for (const address of [factoryAddress(chain.chainId, {}), ...chain.tokens.map((t) => t.address)]) {
          expect(await provider.getCode(address)).not.toBe("0x");
        }
      } finally {
        provider.destroy();
      }
    }
    expect(first.stdout.match(/\(deployed now\)/g)).toHaveLength(endpoints.reduce((n, e) => n + 1 + e.chain.tokens.length, 0));

    const second = await deploy();
    expect(second.stdout).not.toContain("deployed now");
  });

  it("refuses the mainnet environment, which has no devnet account to pay", async () => {
    await expect(deploy({ SERVICE_ENV: "mainnet", RPC_URL_1: "http://127.0.0.1:1", RPC_URL_56: "http://127.0.0.1:1" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("only to the testnet devnet"),
    });
  });
});
