/**
 * Sweep policies against a real anvil and the real database: the firewall's block runs detect the
 * deposits, the policy round makes one whole-balance sweep per address whose balance reaches the
 * minimum (created_by policy, external_id from the newest deposit, the held authorization carried),
 * and the claim judges the policy's gas price and cost rules: a sweep that would break one waits
 * queued saying why, and goes once the chain allows it. A deposit a reorg removed before its
 * confirmations is never swept; a scheduled policy makes nothing before its window.
 */
import { createDb, type Db } from "@sweep/db";
import { queueNames, type QueueNames } from "@sweep/messaging";
import type { ChainTariff } from "@sweep/fees";
import { startTestChain, type TestChain } from "@sweep/testkit";
import { Wallet, parseEther, parseUnits, toQuantity } from "ethers";
import { DelegationFirewall } from "../src/firewall/delegation-firewall";
import { PolicySweeps } from "../src/policies/policy-sweeps";
import { createWorkRound } from "../src/work-round";
import { activeHotWallet, chainWatchOf, feeCeilings, logger, storedAuthorization, uniquePrefix, type HotWalletFixture } from "./support";

const CHAIN_ID = 97;
const settings = { gasMarginBps: 8_000, maxSweeps: 1_000, maxSent: 4, reads: { batchSize: 50, concurrency: 8 } };
const tariff: ChainTariff = { chainId: CHAIN_ID, rateBps: 7_000, nativeMarkupBps: 1_000, classicGas: { USDT: { new: 60_000n, existing: 45_000n } } };
const GWEI = 1_000_000_000n;

describe("sweep policies on anvil", () => {
  let chain: TestChain;
  let db: Db;
  let names: QueueNames;
  let hotWallet: HotWalletFixture;
  let funder: Wallet;
  const requested: string[] = [];
  const readBlocks = (confirmations = 1) => new DelegationFirewall({ db, names, ...chainWatchOf(chain, confirmations), logger, maxBlocksPerRound: 100 }).runOnce();
  const policies = () => new PolicySweeps({ db, chainId: CHAIN_ID, provider: chain.provider, reads: settings.reads, logger, maxAddresses: 500, request: (id) => void requested.push(id) });
  const claim = () => createWorkRound("sweep", { db, names, providers: new Map([[CHAIN_ID, chain.provider]]), feeCeilings, tariffs: new Map([[CHAIN_ID, tariff]]), settings, logger })(hotWallet.hotWalletId);

  beforeAll(async () => {
    chain = await startTestChain(CHAIN_ID);
    db = createDb(process.env.DATABASE_URL!);
    names = queueNames(uniquePrefix());
    await db.chainWatchCursor.deleteMany({ where: { chainId: CHAIN_ID } });
    hotWallet = await activeHotWallet(db, chain);
    funder = new Wallet(Wallet.createRandom().privateKey, chain.provider);
    await chain.setBalance(funder.address, parseEther("100"));
    await readBlocks();
  });
  afterAll(async () => {
    await db.$disconnect();
    await chain.stop();
  });

  /** A deposit address registered with its authorization of the hot wallet's delegate. */
  async function registered(): Promise<Wallet> {
    const owner = Wallet.createRandom() as unknown as Wallet;
    await db.depositAddress.create({
      data: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, address: owner.address, delegation: "authorized", delegate: hotWallet.delegate, authorization: storedAuthorization(owner, hotWallet.delegate, 0, CHAIN_ID) },
    });
    return owner;
  }
  const setPolicy = (token: "USDT" | "tBNB", fields: { minBalance?: bigint; maxFeePerGas?: bigint; maxCostBps?: number; schedule?: "asap" | "hourly"; enabled?: boolean } = {}) => {
    const data = {
      tokenAddress: token === "USDT" ? chain.usdt.address : null,
      hotWalletId: hotWallet.hotWalletId,
      enabled: fields.enabled ?? true,
      minBalance: (fields.minBalance ?? 0n).toString(),
      maxFeePerGas: fields.maxFeePerGas?.toString() ?? null,
      maxCostBps: fields.maxCostBps ?? null,
      tokenDecimals: token === "USDT" ? chain.usdt.decimals : null,
      schedule: fields.schedule ?? "asap",
      nextRunAt: null,
    };
    return db.sweepPolicy.upsert({ where: { partnerId_chainId_token: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, token } }, create: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, token, ...data }, update: data });
  };
  const sweepsOf = (account: string) => db.sweep.findMany({ where: { partnerId: hotWallet.partnerId, account }, orderBy: { seq: "asc" } });
  const sendNative = async (to: string, value: bigint) => (await funder.sendTransaction({ to, value })).wait();
  const setBaseFee = async (wei: bigint) => {
    await chain.provider.send("anvil_setNextBlockBaseFeePerGas", [toQuantity(wei)]);
    await chain.provider.send("evm_mine", []);
  };
  /** Ends what a test left open (no chain-sender takes the batches here), so the next starts clean: every policy off, its work ended. */
  afterEach(async () => {
    await db.sweepPolicy.updateMany({ where: { partnerId: hotWallet.partnerId }, data: { enabled: false } });
    await db.sweep.updateMany({ where: { partnerId: hotWallet.partnerId, status: { in: ["queued", "processing"] } }, data: { status: "rejected", reason: "test over" } });
    await db.batch.updateMany({ where: { hotWalletId: hotWallet.hotWalletId, status: "open" }, data: { status: "failed" } });
  });

  it("sweeps each address whose confirmed deposits reach the minimum, once, and leaves one below it waiting", async () => {
    await setPolicy("USDT", { minBalance: 1_000n });
    const [a, below, twice] = [await registered(), await registered(), await registered()];
    await chain.mintUsdt(a.address, 5_000n);
    await chain.mintUsdt(below.address, 500n);
    await chain.mintUsdt(twice.address, 600n);
    await chain.mintUsdt(twice.address, 600n);
    await readBlocks();

    expect(await policies().runOnce()).toBe(2);
    const [sweepOfA] = await sweepsOf(a.address);
    const [deposit] = await db.deposit.findMany({ where: { address: a.address } });
    expect(sweepOfA).toMatchObject({ createdBy: "policy", hotWalletId: hotWallet.hotWalletId, token: "USDT", amount: null, status: "queued", externalId: `deposit:${CHAIN_ID}:${deposit!.txHash}:${deposit!.logIndex}` });
    expect(sweepOfA!.authorization).toMatchObject({ address: hotWallet.delegate, nonce: 0 });
    expect(await sweepsOf(below.address)).toEqual([]);
    const both = await db.deposit.findMany({ where: { address: twice.address }, orderBy: { seq: "asc" } });
    const [sweepOfTwice] = await sweepsOf(twice.address);
    expect(both.map((d) => d.sweepId)).toEqual([sweepOfTwice!.id, sweepOfTwice!.id]);
    expect(sweepOfTwice!.externalId).toBe(`deposit:${CHAIN_ID}:${both[1]!.txHash}:${both[1]!.logIndex}`);
    expect(requested).toContain(hotWallet.hotWalletId);

    // Rounds again: nothing twice, and the address below the minimum is not judged (its balance read) again until a new deposit.
    const [judged] = await db.deposit.findMany({ where: { address: below.address } });
    expect(judged!.policyCheckedAt).not.toBeNull();
    expect(await policies().runOnce()).toBe(0);
    expect((await db.deposit.findFirstOrThrow({ where: { id: judged!.id } })).policyCheckedAt).toEqual(judged!.policyCheckedAt);
    // The batcher claims them as any sweep: one batch, each delegated by its authorization.
    const claimed = await claim();
    expect(claimed).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect((await db.sweep.findMany({ where: { id: { in: [sweepOfA!.id, sweepOfTwice!.id] } } })).map((s) => s.status)).toEqual(["processing", "processing"]);

    // Another deposit makes the address that was below the minimum reach it.
    await chain.mintUsdt(below.address, 500n);
    await readBlocks();
    expect(await policies().runOnce()).toBe(1);
    expect((await db.deposit.findMany({ where: { address: below.address } })).every((d) => d.sweepId !== null)).toBe(true);
  });

  it("never sweeps a deposit a reorg removed before its confirmations", async () => {
    await setPolicy("tBNB");
    const owner = await registered();
    await sendNative(owner.address, parseEther("1"));
    await readBlocks(3);
    expect(await policies().runOnce()).toBe(0);
    await chain.provider.send("anvil_reorg", [1, []]);
    await chain.provider.send("anvil_mine", ["0x4"]);
    await readBlocks(3);
    expect(await db.deposit.count({ where: { address: owner.address } })).toBe(0);
    expect(await policies().runOnce()).toBe(0);
    expect(await sweepsOf(owner.address)).toEqual([]);
  });

  it("holds a sweep over its max gas price at the claim, saying why, and sends it once the base fee falls", async () => {
    await setPolicy("tBNB", { maxFeePerGas: 5n * GWEI });
    const owner = await registered();
    await sendNative(owner.address, parseEther("1"));
    await readBlocks();
    expect(await policies().runOnce()).toBe(1);
    const [sweep] = await sweepsOf(owner.address);

    // 8 gwei and the tip: under the chain's ceiling (20 gwei), above the policy's 5.
    await setBaseFee(8n * GWEI);
    expect(await claim()).toMatchObject({ outcome: "planned", batchId: null, plan: { waiting: [{ sweepId: sweep!.id, reason: "waiting_for_gas_price" }] } });
    const held = await db.sweep.findUniqueOrThrow({ where: { id: sweep!.id } });
    expect([held.status, held.reason, held.attempts]).toEqual(["queued", "waiting_for_gas_price", 0]);
    expect(held.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    await setBaseFee(GWEI);
    await db.sweep.update({ where: { id: sweep!.id }, data: { nextAttemptAt: new Date() } });
    expect(await claim()).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect(await db.sweep.findUniqueOrThrow({ where: { id: sweep!.id } })).toMatchObject({ status: "processing", reason: null });
  });

  it("holds a sweep whose gas would cost more than its share of the amount, and sends it once the amount is worth it", async () => {
    // 1% of what it moves: a first sweep's 60,000 gas at about 2 gwei is 120,000 gwei, so at least 0.012 coin.
    await setBaseFee(GWEI);
    await setPolicy("tBNB", { maxCostBps: 100 });
    const owner = await registered();
    await sendNative(owner.address, parseUnits("0.001", 18));
    await readBlocks();
    expect(await policies().runOnce()).toBe(1);
    const [sweep] = await sweepsOf(owner.address);
    expect(await claim()).toMatchObject({ plan: { waiting: [{ sweepId: sweep!.id, reason: "cost_above_limit" }] } });
    expect(await db.sweep.findUniqueOrThrow({ where: { id: sweep!.id } })).toMatchObject({ status: "queued", reason: "cost_above_limit" });

    // More coin arrives (its deposit waits for this open sweep, which moves the whole balance).
    await sendNative(owner.address, parseEther("1"));
    await db.sweep.update({ where: { id: sweep!.id }, data: { nextAttemptAt: new Date() } });
    expect(await claim()).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect(await db.sweep.findUniqueOrThrow({ where: { id: sweep!.id } })).toMatchObject({ status: "processing", reason: null });
  });

  it("makes nothing before a scheduled policy's window, and sweeps when it opens", async () => {
    await setPolicy("USDT", { schedule: "hourly" });
    const owner = await registered();
    await chain.mintUsdt(owner.address, 10n);
    await readBlocks();
    expect(await policies().runOnce()).toBe(0);
    const { nextRunAt } = await db.sweepPolicy.findUniqueOrThrow({ where: { partnerId_chainId_token: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, token: "USDT" } } });
    expect(nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect(nextRunAt!.getUTCMinutes()).toBe(0);

    await db.sweepPolicy.updateMany({ where: { partnerId: hotWallet.partnerId, token: "USDT" }, data: { nextRunAt: new Date(Date.now() - 1_000) } });
    expect(await policies().runOnce()).toBe(1);
    const after = await db.sweepPolicy.findUniqueOrThrow({ where: { partnerId_chainId_token: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, token: "USDT" } } });
    expect(after.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("makes nothing for a policy that is off, nor for a compromised address", async () => {
    await setPolicy("USDT", { enabled: false });
    const off = await registered();
    await chain.mintUsdt(off.address, 10n);
    await readBlocks();
    expect(await policies().runOnce()).toBe(0);

    await setPolicy("USDT");
    await db.depositAddress.updateMany({ where: { address: off.address }, data: { delegation: "compromised" } });
    expect(await policies().runOnce()).toBe(0);
    expect(await sweepsOf(off.address)).toEqual([]);
  });
});
