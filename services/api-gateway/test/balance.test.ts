import { createServer, type Server, type Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { Balance } from "@sweep/api-contract";
import { toDecimal } from "@sweep/db";
import { rpcCalls } from "@sweep/metrics";
import { startTestChain, type TestChain, type TestPartner } from "@sweep/testkit";
import { getAddress, parseEther } from "ethers";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, createTestPartner, startTestGateway, type TestGateway } from "./support";

/** A node that takes connections and never answers. */
async function startSilentNode(): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("GET /v1/balance", () => {
  let sepolia: TestChain;
  let bsc: TestChain;
  let gateway: TestGateway;
  beforeAll(async () => {
    [sepolia, bsc] = await Promise.all([startTestChain(SEPOLIA), startTestChain(BSC_TESTNET)]);
    gateway = await startTestGateway({ env: { ...sepolia.env, ...bsc.env } });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([sepolia?.stop(), bsc?.stop()]);
  });

  const balance = async (who: TestPartner, on: TestGateway = gateway) => {
    const res = await request(on.app).get("/v1/balance").set(who.auth);
    expect(res.status).toBe(200);
    expect(Balance.parse(res.body)).toEqual(res.body);
    return res.body as Balance;
  };
  const book = (who: TestPartner, chainId: number, entries: Array<[kind: "gas" | "fee" | "fee_charge" | "fee_credit" | "withdrawal" | "topup", amount: bigint]>) =>
    gateway.db.ledgerEntry.createMany({ data: entries.map(([kind, amount]) => ({ partnerId: who.partnerId, chainId, kind, amount: toDecimal(amount), dedupeKey: `test:${randomUUID()}` })) });

  it("answers per chain the node's balance, the fee reserve from the ledger and what is available", async () => {
    const partner = await createTestPartner(gateway.db);
    await sepolia.setBalance(partner.gasWallet, parseEther("1"));
    await bsc.setBalance(partner.gasWallet, 50_000n);
    await book(partner, SEPOLIA, [["fee", -100n], ["fee_charge", -20n], ["fee_credit", 10n], ["withdrawal", -30n], ["gas", -5_000n], ["topup", 9_000n]]);
    // More due than the wallet holds: nothing is available.
    await book(partner, BSC_TESTNET, [["fee", -70_000n]]);

    expect(await balance(partner)).toEqual({
      gas_wallet: getAddress(partner.gasWallet),
      chains: [
        { chain_id: SEPOLIA, name: "Sepolia", native: "ETH", balance: parseEther("1").toString(), fees_accrued: "110", fees_withdrawn: "30", fees_due: "80", available: (parseEther("1") - 80n).toString() },
        { chain_id: BSC_TESTNET, name: "BSC Testnet", native: "tBNB", balance: "50000", fees_accrued: "70000", fees_withdrawn: "0", fees_due: "70000", available: "0" },
      ],
    });
  });

  it("reads the balance anew at every request", async () => {
    const partner = await createTestPartner(gateway.db);
    await sepolia.setBalance(partner.gasWallet, 1n);
    expect((await balance(partner)).chains[0]).toMatchObject({ balance: "1", available: "1" });
    await sepolia.setBalance(partner.gasWallet, 2n);
    expect((await balance(partner)).chains[0]).toMatchObject({ balance: "2", available: "2" });
  });

  it("with a cache of a block's time, answers two reads within it with one node call and reads anew after it", async () => {
    const ttlMs = 2_000;
    const cached = await startTestGateway({ env: { ...sepolia.env, ...bsc.env }, balanceCacheMs: new Map([[SEPOLIA, ttlMs], [BSC_TESTNET, ttlMs]]) });
    const balanceReads = async () =>
      (await rpcCalls.get()).values.filter((v) => String(v.labels.chain_id) === String(SEPOLIA) && v.labels.method === "eth_getBalance").reduce((sum, v) => sum + v.value, 0);
    try {
      const partner = await createTestPartner(cached.db);
      await sepolia.setBalance(partner.gasWallet, 1n);
      const before = await balanceReads();
      expect((await balance(partner, cached)).chains[0]).toMatchObject({ balance: "1" });
      await sepolia.setBalance(partner.gasWallet, 2n);
      expect((await balance(partner, cached)).chains[0]).toMatchObject({ balance: "1" });
      expect((await balanceReads()) - before).toBe(1);

      await new Promise((resolve) => setTimeout(resolve, ttlMs + 100));
      expect((await balance(partner, cached)).chains[0]).toMatchObject({ balance: "2", available: "2" });
      expect((await balanceReads()) - before).toBe(2);
    } finally {
      await cached.close();
    }
  });

  it("shows nothing accrued or due when credits exceed the fees, and the whole balance available", async () => {
    const partner = await createTestPartner(gateway.db);
    await bsc.setBalance(partner.gasWallet, 1_000n);
    await book(partner, BSC_TESTNET, [["fee", -100n], ["fee_credit", 150n]]);
    expect((await balance(partner)).chains[1]).toEqual({ chain_id: BSC_TESTNET, name: "BSC Testnet", native: "tBNB", balance: "1000", fees_accrued: "0", fees_withdrawn: "0", fees_due: "0", available: "1000" });
  });

  it("shows a chain whose node refuses connections as chain_unavailable, without balance and available, while the other chain answers", async () => {
    const halfDown = await startTestGateway({ env: sepolia.env });
    try {
      const partner = await createTestPartner(halfDown.db);
      await sepolia.setBalance(partner.gasWallet, 777n);
      await book(partner, BSC_TESTNET, [["fee", -9n]]);
      expect((await balance(partner, halfDown)).chains).toEqual([
        { chain_id: SEPOLIA, name: "Sepolia", native: "ETH", balance: "777", fees_accrued: "0", fees_withdrawn: "0", fees_due: "0", available: "777" },
        { chain_id: BSC_TESTNET, name: "BSC Testnet", native: "tBNB", fees_accrued: "9", fees_withdrawn: "0", fees_due: "9", error: "chain_unavailable" },
      ]);
    } finally {
      await halfDown.close();
    }
  });

  it("gives up on a node that does not answer after BALANCE_RPC_TIMEOUT_MS, reading the chains at once", async () => {
    const [silentSepolia, silentBsc] = await Promise.all([startSilentNode(), startSilentNode()]);
    const timeoutMs = 800;
    const bscSilent = await startTestGateway({ env: { ...sepolia.env, RPC_URL_97: silentBsc.url }, balanceRpcTimeoutMs: timeoutMs });
    const bothSilent = await startTestGateway({ env: { RPC_URL_11155111: silentSepolia.url, RPC_URL_97: silentBsc.url }, balanceRpcTimeoutMs: timeoutMs });
    try {
      const partner = await createTestPartner(gateway.db);
      await sepolia.setBalance(partner.gasWallet, 5n);
      const one = await balance(partner, bscSilent);
      expect(one.chains.map((c) => [c.chain_id, c.balance, c.error])).toEqual([
        [SEPOLIA, "5", undefined],
        [BSC_TESTNET, undefined, "chain_unavailable"],
      ]);

      const started = Date.now();
      const both = await balance(partner, bothSilent);
      const elapsed = Date.now() - started;
      expect(both.chains.map((c) => c.error)).toEqual(["chain_unavailable", "chain_unavailable"]);
      expect(both.chains.every((c) => !("balance" in c) && !("available" in c))).toBe(true);
      // One timeout, not one per chain.
      expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(elapsed).toBeLessThan(2 * timeoutMs);
    } finally {
      await Promise.all([bscSilent.close(), bothSilent.close()]);
      await Promise.all([silentSepolia.stop(), silentBsc.stop()]);
    }
  });
});
