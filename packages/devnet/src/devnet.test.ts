import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REALISTIC_L1_BLOCK_FEES, freePort, rpcAnswers, startAnvil, type AnvilNode } from "@sweep/anvil";
import { createProvider } from "@sweep/rpc";
import { devTokenDeployment, factoryDeployment } from "@sweep/chains";
import { contractAt } from "@sweep/contracts";
import { createDb } from "@sweep/db";
import { chainEndpoints, startLocalChain, withOpStack, type ChainEndpoint, type LocalChain, type RunningChain } from "./chains";
import { deployPlatformContracts } from "./deploy-platform";
import { devnetInfo } from "./devnet-info";
import { resetDevnet } from "./reset";

// Chains on free ports, state in a temporary directory: a running `pnpm start` (8545/8546, .devnet/) is never touched.
const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "sweep-devnet-"));
const quiet = () => {};
const factory = () => factoryDeployment().address;
const usdt6 = () => devTokenDeployment("USDT", 6).address;

async function codeAt(rpcUrl: string, chainId: number, address: string): Promise<string> {
  const provider = createProvider(rpcUrl, chainId);
  try {
    return await provider.getCode(address);
  } finally {
    provider.destroy();
  }
}

describe("local chains and platform contracts", () => {
  const chainId = 11155111;
  let local: LocalChain;
  let chain: RunningChain | undefined;

  beforeAll(async () => {
    local = { chainId, port: await freePort(), stateFile: path.join(tmpDir(), `${chainId}.json`), optimism: false };
  });
  afterEach(() => chain?.stop());

  it("deploys the factory and the devnet token at their CREATE2 addresses, once, and keeps them across a restart", async () => {
    chain = await startLocalChain(local, 1, quiet);
    expect(chain.process).toBeDefined();

    const first = await deployPlatformContracts(chain.rpcUrl, chainId, [{ ticker: "USDT", decimals: 6 }]);
    expect(first).toEqual([
      { name: "DelegateFactory", address: factory(), deployed: true },
      { name: "DevToken USDT", address: usdt6(), deployed: true },
    ]);
    const provider = createProvider(chain.rpcUrl, chainId);
    try {
      expect(await contractAt("DevToken", usdt6(), provider).getFunction("decimals")()).toBe(6n);
      const deployer = (await provider.getSigner(0)).address;
      const nonce = await provider.getTransactionCount(deployer);

      const second = await deployPlatformContracts(chain.rpcUrl, chainId, [{ ticker: "USDT", decimals: 6 }]);
      expect(second.map((c) => c.deployed)).toEqual([false, false]);
      expect(await provider.getTransactionCount(deployer)).toBe(nonce);
    } finally {
      provider.destroy();
    }

    await chain.stop();
    expect(fs.existsSync(local.stateFile)).toBe(true);
    chain = await startLocalChain(local, 1, quiet);
    expect(await codeAt(chain.rpcUrl, chainId, factory())).not.toBe("0x");
    expect(await codeAt(chain.rpcUrl, chainId, usdt6())).not.toBe("0x");
    expect((await deployPlatformContracts(chain.rpcUrl, chainId, [{ ticker: "USDT", decimals: 6 }])).map((c) => c.deployed)).toEqual([false, false]);
  });

  it("reuses a chain already answering on its port and leaves it running", async () => {
    chain = await startLocalChain(local, 1, quiet);
    const lines: string[] = [];
    const again = await startLocalChain(local, 1, (line) => lines.push(line));
    expect(again.process).toBeUndefined();
    expect(lines.join("\n")).toMatch(/already running/);
    await again.stop();
    expect(await rpcAnswers(chain.rpcUrl, chainId)).toBe(true);
  });

  it("runs an OP-stack chain in optimism mode, charging an L1 data fee at L1Block's values, after a restart too", async () => {
    const op: LocalChain = { chainId: 11155420, port: await freePort(), stateFile: path.join(tmpDir(), "11155420.json"), optimism: true };
    const l1FeeCharged = async () => {
      const provider = createProvider(chain!.rpcUrl, op.chainId);
      try {
        expect(BigInt(await provider.getStorage("0x4200000000000000000000000000000000000015", 1n))).toBe(REALISTIC_L1_BLOCK_FEES.l1BaseFee);
        const signer = await provider.getSigner(0);
        const mined = (await (await signer.sendTransaction({ to: signer.address, data: "0x" + "ab".repeat(300) })).wait())!;
        const spent = (await provider.getBalance(signer.address, mined.blockNumber - 1)) - (await provider.getBalance(signer.address, mined.blockNumber));
        return spent - mined.gasUsed * mined.gasPrice;
      } finally {
        provider.destroy();
      }
    };
    chain = await startLocalChain(op, 1, quiet);
    expect(await l1FeeCharged()).toBeGreaterThan(0n);
    await chain.stop();
    chain = await startLocalChain(op, 1, quiet);
    expect(await l1FeeCharged()).toBeGreaterThan(0n);
  });

  it("refuses a port where another chain answers", async () => {
    chain = await startLocalChain(local, 1, quiet);
    await expect(startLocalChain({ ...local, chainId: 97 }, 1, quiet)).rejects.toThrow(/answers as another chain than 97/);
  });
});

describe("devnet info", () => {
  it("lists each testnet chain with its local RPC URL and its devnet token", () => {
    expect(devnetInfo("testnet", {})).toEqual({
      chains: [
        { chain_id: 11155111, rpc_url: "http://127.0.0.1:8545", tokens: [{ ticker: "USDT", address: usdt6(), decimals: 6 }] },
        { chain_id: 97, rpc_url: "http://127.0.0.1:8546", tokens: [{ ticker: "USDT", address: devTokenDeployment("USDT", 18).address, decimals: 18 }] },
      ],
    });
  });

  it("runs OP Sepolia locally, as an OP-stack chain on its own port, when ENV_CHAINS lists it (pnpm start --with-op)", () => {
    const endpoints = chainEndpoints("testnet", { ENV_CHAINS: "11155111,97,11155420" });
    expect(endpoints.map((e) => [e.chain.chainId, e.rpcUrl, e.local?.optimism])).toEqual([
      [11155111, "http://127.0.0.1:8545", false],
      [97, "http://127.0.0.1:8546", false],
      [11155420, "http://127.0.0.1:8547", true],
    ]);
  });

  it.each([
    [{}, "11155111,97,11155420"],
    [{ ENV_CHAINS: "97" }, "97,11155420"],
    [{ ENV_CHAINS: "97, 11155420" }, "97,11155420"],
  ])("--with-op adds OP Sepolia to ENV_CHAINS %o, once", (env, expected) => {
    expect(withOpStack(env)).toBe(expected);
  });

  it("shows a real node where RPC_URL_<chain_id> replaces the local chain, by its host only", () => {
    const env = { RPC_URL_97: "https://bsc-testnet.example/v3/provider-key" };
    expect(devnetInfo("testnet", env).chains[1]).toMatchObject({ chain_id: 97, rpc_url: "https://bsc-testnet.example" });
    expect(chainEndpoints("testnet", env).map((e) => e.local?.chainId)).toEqual([11155111, undefined]);
  });
});

describe("devnet reset", () => {
  // A database of its own: the reset drops every table.
  const databaseUrl = (() => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = "/sweep_devnet_reset_test";
    return url.toString();
  })();
  let endpoints: ChainEndpoint[];
  let anvil: AnvilNode | undefined;

  beforeEach(async () => {
    const stateDir = tmpDir();
    const ports = [await freePort(), await freePort()];
    endpoints = chainEndpoints("testnet", {}, stateDir).map((e, i) => ({ ...e, rpcUrl: `http://127.0.0.1:${ports[i]}` }));
    for (const e of endpoints) fs.writeFileSync(e.local!.stateFile, "{}");
  });
  afterEach(() => anvil?.stop());

  it("wipes the database and the state files together", async () => {
    await resetDevnet(databaseUrl, endpoints);
    const db = createDb(databaseUrl);
    try {
      await db.partner.create({ data: { name: "before the reset", environment: "testnet" } });
      for (const e of endpoints) fs.writeFileSync(e.local!.stateFile, "{}");

      const { stateFiles } = await resetDevnet(databaseUrl, endpoints);
      expect(stateFiles.sort()).toEqual(endpoints.map((e) => e.local!.stateFile).sort());
      expect(endpoints.some((e) => fs.existsSync(e.local!.stateFile))).toBe(false);
      expect(await db.partner.count()).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });

  it("refuses while a local chain runs, and wipes nothing", async () => {
    anvil = await startAnvil({ chainId: 97 });
    endpoints[1]!.rpcUrl = anvil.rpcUrl;
    await expect(resetDevnet(databaseUrl, endpoints)).rejects.toThrow(/chain 97 is still running on .*: stop `pnpm start`/);
    expect(endpoints.every((e) => fs.existsSync(e.local!.stateFile))).toBe(true);
  });

  it("refuses when a chain is a real node", async () => {
    const withRealNode = chainEndpoints("testnet", { RPC_URL_97: "https://bsc-testnet.example" });
    await expect(resetDevnet(databaseUrl, withRealNode)).rejects.toThrow(/chain 97 is not a local devnet chain/);
  });
});
