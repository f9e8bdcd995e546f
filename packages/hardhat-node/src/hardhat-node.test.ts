import { startAnvil, type AnvilNode } from "@sweep/anvil";
import { ANVIL_PREDEPLOYS, hardhatConfig, startHardhatNode, type HardhatNode } from "./hardhat-node";

async function call(rpcUrl: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}
const result = async (rpcUrl: string, method: string, params: unknown[] = []) => (await call(rpcUrl, method, params)).result;

describe("hardhatConfig", () => {
  it("mines a block per transaction without a block time, and only every blockTime seconds with one", () => {
    expect(hardhatConfig(97)).toMatchObject({ networks: { hardhat: { chainId: 97, hardfork: "prague", mining: { auto: true }, loggingEnabled: false } } });
    expect(hardhatConfig(11155111, 2)).toMatchObject({ networks: { hardhat: { chainId: 11155111, mining: { auto: false, interval: 2000 } } } });
  });
});

describe("startHardhatNode, beside an anvil", () => {
  let hardhat: HardhatNode;
  let anvil: AnvilNode;

  beforeAll(async () => {
    [hardhat, anvil] = await Promise.all([startHardhatNode({ chainId: 97 }), startAnvil({ chainId: 97 })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([hardhat?.stop(), anvil?.stop()]);
  });

  it("answers as the chain asked for, on a port of its own", async () => {
    expect(hardhat.rpcUrl).toBe(`http://127.0.0.1:${hardhat.port}`);
    expect(await result(hardhat.rpcUrl, "eth_chainId")).toBe("0x61");
    expect(await result(hardhat.rpcUrl, "web3_clientVersion")).toMatch(/^HardhatNetwork\//);
  });

  it("on a port another node of the same chain holds, fails instead of passing that node off as its own", async () => {
    await expect(startHardhatNode({ chainId: 97, port: anvil.port })).rejects.toThrow(/hardhat node exited with .* before it listened/);
    expect(await result(anvil.rpcUrl, "web3_clientVersion")).toMatch(/^anvil\//);
  }, 60_000);

  it("has the code anvil predeploys, at the same addresses", async () => {
    for (const { address, code } of ANVIL_PREDEPLOYS) {
      expect(await result(anvil.rpcUrl, "eth_getCode", [address, "latest"])).toBe(code);
      expect(await result(hardhat.rpcUrl, "eth_getCode", [address, "latest"])).toBe(code);
    }
  });

  it("has anvil's funded, unlocked accounts and block gas limit", async () => {
    const accounts = (await result(anvil.rpcUrl, "eth_accounts")) as string[];
    expect(await result(hardhat.rpcUrl, "eth_accounts")).toEqual(accounts);
    expect(await result(hardhat.rpcUrl, "eth_getBalance", [accounts[0], "latest"])).toBe(await result(anvil.rpcUrl, "eth_getBalance", [accounts[0], "latest"]));
    const gasLimit = async (url: string) => ((await result(url, "eth_getBlockByNumber", ["latest", false])) as { gasLimit: string }).gasLimit;
    expect(await gasLimit(hardhat.rpcUrl)).toBe(await gasLimit(anvil.rpcUrl));
  });

  it("takes the test RPCs under the hardhat_ names anvil also takes", async () => {
    const address = "0x00000000000000000000000000000000000000aa";
    for (const url of [hardhat.rpcUrl, anvil.rpcUrl]) {
      expect((await call(url, "hardhat_setBalance", [address, "0x2a"])).error).toBeUndefined();
      expect(await result(url, "eth_getBalance", [address, "latest"])).toBe("0x2a");
    }
  });

  it("lacks eth_simulateV1, with an error anvil does not give", async () => {
    expect(await call(hardhat.rpcUrl, "eth_simulateV1", [{ blockStateCalls: [] }, "latest"])).toMatchObject({ error: { code: -32004 } });
    expect(await call(anvil.rpcUrl, "eth_simulateV1", [{ blockStateCalls: [] }, "latest"])).toMatchObject({ result: [] });
  });
});

describe("startHardhatNode with a block time", () => {
  it("mines blocks on its own, and stop ends the process", async () => {
    const node = await startHardhatNode({ chainId: 11155111, blockTime: 1 });
    try {
      const start = Number(await result(node.rpcUrl, "eth_blockNumber"));
      await new Promise((r) => setTimeout(r, 2_500));
      expect(Number(await result(node.rpcUrl, "eth_blockNumber"))).toBeGreaterThanOrEqual(start + 2);
    } finally {
      await node.stop();
    }
    expect(node.process.exitCode !== null || node.process.signalCode !== null).toBe(true);
    expect(await call(node.rpcUrl, "eth_chainId").catch(() => "refused")).toBe("refused");
  }, 30_000);
});
