import { environmentChainIds } from "@sweep/chains";
import { openMessaging, outboxDraft } from "@sweep/messaging";
import { startService, type ServiceProcess } from "@sweep/testkit";
import { Wallet } from "ethers";
import { CHAIN_ID, activeHotWallet, deleteTopology, logger, openSweepBatch, outboxOf, partnerWithGasWallet, startHarness, type Harness } from "./support";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("chain-sender as a process: killed between broadcast and receipt, and on a chain that stopped making blocks", () => {
  let h: Harness;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await service?.kill();
    if (h) {
      const messaging = await openMessaging({ url: RABBITMQ_URL, chainIds: environmentChainIds("testnet"), prefix: h.prefix, logger });
      await deleteTopology(messaging);
      for (const closer of [...messaging.closers].reverse()) await closer.close();
      await h.stop();
    }
  }, 60_000);

  async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${service?.output().slice(-4_000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("a restarted sender rebroadcasts the stored transaction the node lost and settles it, with no second transaction for the nonce", async () => {
    const env = {
      SERVICE_ENV: "testnet",
      CHAINS: String(CHAIN_ID),
      DATABASE_URL: h.databaseUrl,
      AMQP_PREFIX: h.prefix,
      LOG_LEVEL: "info",
      ...h.chain.env,
      [`BLOCK_TIME_MS_${CHAIN_ID}`]: "100",
      // No replacement may hide whether the stored transaction itself was resumed.
      [`REPLACE_AFTER_BLOCKS_${CHAIN_ID}`]: "100000",
    };
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const owners = [Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom()];
    for (const [i, owner] of owners.entries()) await h.chain.mintUsdt(owner.address, BigInt(100 + i));
    await h.chain.provider.send("evm_setAutomine", [false]);

    const { batchId } = await openSweepBatch(
      h,
      partner,
      hotWallet,
      owners.map((owner) => ({ owner, tokenAddress: h.chain.usdt.address, kind: "first_new" as const, withAuthorization: true })),
    );
    await h.db.outboxMessage.create({ data: outboxDraft("batch.ready", { batchId, chainId: CHAIN_ID }, h.names) });
    service = await startService("chain-sender", env);

    const broadcast = await until("the batch's transaction broadcast", async () => (await h.db.chainTransaction.findFirst({ where: { batchId, status: "broadcast" } })) ?? undefined);
    await service.kill();
    // While the sender is dead the node loses the transaction (a restart of the node, an eviction).
    await h.chain.provider.send("anvil_dropTransaction", [broadcast.hash]);
    expect(await h.client.isKnown(broadcast.hash)).toBe(false);

    service = await startService("chain-sender", env);
    await until("the stored transaction back in the node's pool", async () => ((await h.client.isKnown(broadcast.hash)) ? true : undefined));
    await h.chain.provider.send("evm_mine", []);
    await until("the batch confirmed", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batchId } })).status === "confirmed" ? true : undefined));

    const stored = await h.db.chainTransaction.findMany({ where: { gasWalletId: partner.gasWalletId } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: broadcast.id, hash: broadcast.hash, status: "confirmed", succeeded: true, nonce: 0n });
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(1);
    const items = await h.db.batchItem.findMany({ where: { batchId }, orderBy: { position: "asc" } });
    expect(items.map((i) => i.outcome)).toEqual(["swept", "swept", "swept"]);
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toEqual([{ chainId: CHAIN_ID, transactionId: broadcast.id }]);
    expect(service.output()).toContain("resuming stored transactions");
  }, 120_000);

  // A threshold in blocks counts the chain's block times on the clock: a chain that makes no block still has its stuck transaction replaced.
  it("replaces a transaction stuck on a chain that stopped making blocks after REPLACE_AFTER_BLOCKS of its block times", async () => {
    await service?.kill();
    await h.chain.provider.send("evm_setAutomine", [true]);
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const owner = Wallet.createRandom();
    await h.chain.mintUsdt(owner.address, 100n);
    await h.chain.provider.send("evm_setAutomine", [false]);
    const halted = await h.chain.provider.getBlockNumber();

    const { batchId } = await openSweepBatch(h, partner, hotWallet, [{ owner, tokenAddress: h.chain.usdt.address, kind: "first_new" as const, withAuthorization: true }]);
    await h.db.outboxMessage.create({ data: outboxDraft("batch.ready", { batchId, chainId: CHAIN_ID }, h.names) });
    const env = {
      SERVICE_ENV: "testnet",
      CHAINS: String(CHAIN_ID),
      DATABASE_URL: h.databaseUrl,
      AMQP_PREFIX: h.prefix,
      ...h.chain.env,
      // 4 blocks of 250 ms: replaced a second after its broadcast, by the clock, with no block made.
      [`BLOCK_TIME_MS_${CHAIN_ID}`]: "250",
      [`REPLACE_AFTER_BLOCKS_${CHAIN_ID}`]: "4",
    };
    service = await startService("chain-sender", env);

    const first = await until("the batch's transaction broadcast", async () => (await h.db.chainTransaction.findFirst({ where: { batchId, status: "broadcast", replacement: 0 } })) ?? undefined);
    const replacement = await until("its replacement", async () => (await h.db.chainTransaction.findFirst({ where: { batchId, replacement: 1 } })) ?? undefined, 20_000);
    expect(await h.chain.provider.getBlockNumber()).toBe(halted);
    expect(replacement.createdAt.getTime() - first.broadcastAt!.getTime()).toBeGreaterThanOrEqual(1_000);
    expect(replacement.nonce).toBe(first.nonce);

    await h.chain.provider.send("evm_mine", []);
    await until("the batch confirmed", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batchId } })).status === "confirmed" ? true : undefined));
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(1);
  }, 120_000);
});
