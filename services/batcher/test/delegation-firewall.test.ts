/**
 * The delegation firewall against a real anvil and the real database: a deposit address of the
 * inventory whose key signs a drainer's delegation, carried on chain by a stranger, is marked
 * compromised with its event from the block that did it, and its queued sweep is rejected
 * foreign_delegation; an address that sends a transaction is marked too; the service's own kinds of
 * delegation, and an authorization the chain skipped, are not.
 */
import { createDb, type Db } from "@sweep/db";
import { queueNames, type QueueNames } from "@sweep/messaging";
import { scrapeMetrics } from "@sweep/metrics";
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { ScrapedMetrics, parsePrometheusText, startTestChain, type TestChain } from "@sweep/testkit";
import { Wallet, ZeroAddress, getAddress, parseEther, type BaseWallet } from "ethers";
import { DelegationFirewall } from "../src/firewall/delegation-firewall";
import { createWorkRound } from "../src/work-round";
import { activeHotWallet, chainWatchOf, delegateOnChain, feeCeilings, insertSweep, logger, tokenOnlyAddress, uniquePrefix, type HotWalletFixture } from "./support";

const CHAIN_ID = 97;
const DRAINER = getAddress("0x00000000000000000000000000000000000d4a11");
const settings = { gasMarginBps: 8_000, maxSweeps: 1_000, maxSent: 2, reads: { batchSize: 50, concurrency: 8 } };

describe("the delegation firewall on anvil", () => {
  let chain: TestChain;
  let db: Db;
  let names: QueueNames;
  let provider: ChainProvider;
  let hotWallet: HotWalletFixture;
  const firewall = () => new DelegationFirewall({ db, names, ...chainWatchOf(chain), provider, logger, maxBlocksPerRound: 100 });

  beforeAll(async () => {
    chain = await startTestChain(CHAIN_ID);
    db = createDb(process.env.DATABASE_URL!);
    names = queueNames(uniquePrefix());
    provider = createProvider(chain.rpcUrl, CHAIN_ID, 5_000);
    // This worker's database may hold a cursor of another test's chain 97.
    await db.chainWatchCursor.deleteMany({ where: { chainId: CHAIN_ID } });
    hotWallet = await activeHotWallet(db, chain);
    // The first round starts at the head: what came before is not judged.
    await firewall().runOnce();
  });
  afterAll(async () => {
    provider.destroy();
    await db.$disconnect();
    await chain.stop();
  });

  /** A deposit address in the partner's inventory, delegated to the partner's delegate on chain (by a stranger carrying its authorization). */
  async function inventoried(): Promise<BaseWallet> {
    const deposit = await tokenOnlyAddress(chain);
    await delegateOnChain(chain, deposit, hotWallet.delegate);
    await db.depositAddress.create({ data: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, address: deposit.address, delegation: "delegated", delegate: hotWallet.delegate } });
    return deposit;
  }
  const entry = (address: string) => db.depositAddress.findFirstOrThrow({ where: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, address } });
  const eventsOf = (type: string, address: string) => db.event.findMany({ where: { partnerId: hotWallet.partnerId, type, payload: { path: ["address"], equals: address } } });
  const compromisedCount = async (kind: string) => new ScrapedMetrics(parsePrometheusText((await scrapeMetrics()).body)).sum("sweep_deposit_addresses_compromised_total", { chain_id: String(CHAIN_ID), kind }) ?? 0;

  it("marks an address whose key delegated to a drainer compromised, from that block, and rejects its queued sweep foreign_delegation", async () => {
    const deposit = await inventoried();
    await firewall().runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "delegated" });
    const queued = await insertSweep(db, chain, hotWallet, { account: deposit.address });
    const before = await compromisedCount("delegation_changed");

    await delegateOnChain(chain, deposit, DRAINER);
    const drained = await chain.provider.getBlockNumber();
    const drainTx = (await chain.provider.getBlock(drained, true))!.prefetchedTransactions[0]!;
    expect(await firewall().runOnce()).toBeGreaterThanOrEqual(1);

    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised", compromisedTxHash: drainTx.hash, compromisedBlock: BigInt(drained) });
    const [event, ...others] = await eventsOf("deposit_address.delegation_changed", deposit.address);
    expect(others).toEqual([]);
    expect(event!.payload).toEqual({
      chain_id: CHAIN_ID,
      address: deposit.address,
      tx_hash: drainTx.hash,
      block_number: drained,
      sender: drainTx.from,
      old_delegate: hotWallet.delegate,
      new_delegate: DRAINER,
    });
    expect(await db.outboxMessage.count({ where: { type: "event.recorded", payload: { path: ["eventId"], equals: event!.id } } })).toBe(1);
    expect(await compromisedCount("delegation_changed")).toBe(before + 1);

    const round = createWorkRound("sweep", { db, names, providers: new Map([[CHAIN_ID, provider]]), feeCeilings, settings, logger });
    await round(hotWallet.hotWalletId);
    expect(await db.sweep.findUniqueOrThrow({ where: { id: queued } })).toMatchObject({ status: "rejected", reason: "foreign_delegation", batchId: null });
  });

  it("marks an address that sends a transaction itself: its key is used outside the service", async () => {
    const deposit = await inventoried();
    await chain.setBalance(deposit.address, parseEther("1"));
    const sent = await deposit.connect(chain.provider).sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    await sent.wait();
    await firewall().runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised", compromisedTxHash: sent.hash });
    expect((await eventsOf("deposit_address.activity", deposit.address)).map((e) => e.payload)).toEqual([
      { chain_id: CHAIN_ID, address: deposit.address, tx_hash: sent.hash, block_number: (await sent.wait())!.blockNumber },
    ]);
  });

  it("passes the service's own kinds of delegation, a revocation by the partner's gas wallet, and an authorization the chain skipped", async () => {
    const deposit = await inventoried();
    // A stale nonce: the chain skips the authorization, nothing changed.
    const sponsor = Wallet.createRandom(chain.provider);
    await chain.setBalance(sponsor.address, parseEther("1"));
    const stale = deposit.authorizeSync({ address: DRAINER, nonce: 7n, chainId: BigInt(CHAIN_ID) });
    await (await sponsor.sendTransaction({ type: 4, to: sponsor.address, authorizationList: [stale], nonce: 0 })).wait();
    // The partner's gas wallet takes the delegation back, as a revocation does.
    await chain.provider.send("anvil_impersonateAccount", [hotWallet.gasWallet]);
    await chain.setBalance(hotWallet.gasWallet, parseEther("1"));
    const revocation = deposit.authorizeSync({ address: ZeroAddress, nonce: BigInt(await chain.provider.getTransactionCount(deposit.address)), chainId: BigInt(CHAIN_ID) });
    const impersonated = await chain.provider.getSigner(hotWallet.gasWallet);
    await (await impersonated.sendTransaction({ type: 4, to: hotWallet.gasWallet, authorizationList: [revocation] })).wait();
    expect(await chain.provider.getCode(deposit.address)).toBe("0x");

    await firewall().runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "delegated" });
    expect(await db.event.count({ where: { partnerId: hotWallet.partnerId, payload: { path: ["address"], equals: deposit.address } } })).toBe(0);
  });

  it("puts back an address whose marking block a reorg removed, and marks it again when its transaction is mined again", async () => {
    // One batcher's firewall throughout: it knows the last block it read without asking the database.
    const watcher = firewall();
    const deposit = await inventoried();
    await watcher.runOnce();
    await delegateOnChain(chain, deposit, DRAINER);
    const drainHash = (await chain.provider.getBlock("latest", true))!.prefetchedTransactions[0]!.hash;
    const raw = (await chain.provider.send("eth_getRawTransactionByHash", [drainHash])) as string;
    await watcher.runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised", compromisedFrom: "delegated" });

    // The drainer's block is replaced by an empty one; the firewall sees it once a block follows.
    await chain.provider.send("anvil_reorg", [1, []]);
    await chain.provider.send("evm_mine", []);
    expect(await chain.provider.getTransactionReceipt(drainHash)).toBeNull();
    await watcher.runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "delegated", compromisedFrom: null, compromisedTxHash: null, compromisedBlock: null });

    await (await chain.provider.broadcastTransaction(raw)).wait();
    await watcher.runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised", compromisedTxHash: drainHash });
    // The partner was told once: the event of that transaction is not sent again.
    expect(await eventsOf("deposit_address.delegation_changed", deposit.address)).toHaveLength(1);
  });

  it("is not fooled by a stale authorization of the partner's delegate after the drainer's in the same list", async () => {
    const deposit = await inventoried();
    await firewall().runOnce();
    const sponsor = Wallet.createRandom(chain.provider);
    await chain.setBalance(sponsor.address, parseEther("1"));
    const nonce = BigInt(await chain.provider.getTransactionCount(deposit.address));
    const drainer = deposit.authorizeSync({ address: DRAINER, nonce, chainId: BigInt(CHAIN_ID) });
    // Taken from a sweep's public authorization list: a nonce the address has used, so the chain skips it.
    const stale = deposit.authorizeSync({ address: hotWallet.delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) });
    await (await sponsor.sendTransaction({ type: 4, to: sponsor.address, authorizationList: [drainer, stale], nonce: 0 })).wait();
    expect(await chain.provider.getCode(deposit.address)).toBe(`0xef0100${DRAINER.slice(2).toLowerCase()}`);
    await firewall().runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised" });
  });

  it("keeps the first mark: a reorg that removes only a later one leaves the address compromised", async () => {
    const watcher = firewall();
    const deposit = await inventoried();
    await watcher.runOnce();
    await delegateOnChain(chain, deposit, DRAINER);
    const first = await chain.provider.getBlockNumber();
    await watcher.runOnce();
    await chain.setBalance(deposit.address, parseEther("1"));
    await (await deposit.connect(chain.provider).sendTransaction({ to: Wallet.createRandom().address, value: 1n })).wait();
    await watcher.runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised", compromisedBlock: BigInt(first), compromisedFrom: "delegated" });

    await chain.provider.send("anvil_reorg", [1, []]);
    await chain.provider.send("evm_mine", []);
    await watcher.runOnce();
    expect(await entry(deposit.address)).toMatchObject({ delegation: "compromised", compromisedBlock: BigInt(first) });
  });

  it("reports how many blocks it has not read yet after each round", async () => {
    const behind = async () => new ScrapedMetrics(parsePrometheusText((await scrapeMetrics()).body)).sum("sweep_firewall_blocks_behind", { chain_id: String(CHAIN_ID) });
    await firewall().runOnce();
    expect(await behind()).toBe(0);
    await chain.provider.send("anvil_mine", ["0x3"]);
    await new DelegationFirewall({ db, names, ...chainWatchOf(chain), provider, logger, maxBlocksPerRound: 1 }).runOnce();
    expect(await behind()).toBe(2);
    await firewall().runOnce();
    expect(await behind()).toBe(0);
  });

  it("moves past empty blocks with their hashes stored, once when two batchers read them at the same time", async () => {
    await firewall().runOnce();
    const from = (await chain.provider.getBlockNumber()) + 1;
    await chain.provider.send("anvil_mine", ["0x3"]);
    const [one, other] = await Promise.all([firewall().runOnce(), firewall().runOnce()]);
    expect([one, other]).toContain(3);
    expect(Number((await db.chainWatchCursor.findUniqueOrThrow({ where: { chainId: CHAIN_ID } })).nextBlock)).toBe(from + 3);
    const stored = await db.watchedBlock.findMany({ where: { chainId: CHAIN_ID, number: { gte: BigInt(from) } }, orderBy: { number: "asc" } });
    const onChain = await Promise.all([0, 1, 2].map(async (i) => (await chain.provider.getBlock(from + i))!.hash));
    expect(stored.map((block) => block.hash)).toEqual(onChain);
  });

  it("records a block's hits once when two batchers of the chain read it at the same time", async () => {
    const deposit = await inventoried();
    await firewall().runOnce();
    await delegateOnChain(chain, deposit, DRAINER);
    await Promise.all([firewall().runOnce(), firewall().runOnce()]);
    expect(await eventsOf("deposit_address.delegation_changed", deposit.address)).toHaveLength(1);
    expect(Number((await db.chainWatchCursor.findUniqueOrThrow({ where: { chainId: CHAIN_ID } })).nextBlock)).toBe((await chain.provider.getBlockNumber()) + 1);
  });
});
