/**
 * Deposit detection against a real anvil and the real database, in the firewall's block runs: a
 * listed token's transfer and a transaction of native coin to inventory addresses are stored once
 * each, pending, and confirmed with one deposit.detected event each at the chain's confirmations;
 * what is not a deposit (a failed transfer, a look-alike token, an address outside the inventory) is
 * not stored; a reorg before the confirmations removes the deposit and its event is never sent; and
 * behind a provider one of whose backends lags, nothing is missed.
 */
import { createDb, type Db } from "@sweep/db";
import { queueNames, type QueueNames } from "@sweep/messaging";
import { scrapeMetrics } from "@sweep/metrics";
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { ScrapedMetrics, parsePrometheusText, startRpcFaultProxy, startTestChain, type RpcFaultProxy, type TestChain } from "@sweep/testkit";
import { Contract, Wallet, getAddress, parseEther } from "ethers";
import { DelegationFirewall } from "../src/firewall/delegation-firewall";
import { activeHotWallet, chainWatchOf, logger, uniquePrefix, type HotWalletFixture } from "./support";

const CHAIN_ID = 97;
/** a block on top of a deposit's before it is confirmed: room for a reorg to remove it first */
const CONFIRMATIONS = 2;

describe("deposit detection on anvil", () => {
  let chain: TestChain;
  let db: Db;
  let names: QueueNames;
  let hotWallet: HotWalletFixture;
  let funder: Wallet;
  const watcherOn = (provider: ChainProvider) => new DelegationFirewall({ db, names, ...chainWatchOf(chain, CONFIRMATIONS), provider, logger, maxBlocksPerRound: 100 });
  const watcher = () => watcherOn(chain.provider);

  beforeAll(async () => {
    chain = await startTestChain(CHAIN_ID);
    db = createDb(process.env.DATABASE_URL!);
    names = queueNames(uniquePrefix());
    // This worker's database may hold a cursor of another test's chain 97.
    await db.chainWatchCursor.deleteMany({ where: { chainId: CHAIN_ID } });
    hotWallet = await activeHotWallet(db, chain);
    funder = new Wallet(Wallet.createRandom().privateKey, chain.provider);
    await chain.setBalance(funder.address, parseEther("100"));
    await watcher().runOnce();
  });
  afterAll(async () => {
    await db.$disconnect();
    await chain.stop();
  });

  async function inventoried(): Promise<string> {
    const address = Wallet.createRandom().address;
    await db.depositAddress.create({ data: { partnerId: hotWallet.partnerId, chainId: CHAIN_ID, address, delegation: "authorized", delegate: hotWallet.delegate } });
    return address;
  }
  const depositsOf = (address: string) => db.deposit.findMany({ where: { partnerId: hotWallet.partnerId, address }, orderBy: { seq: "asc" } });
  const detectedEvents = (ids: string[]) => db.event.findMany({ where: { type: "deposit.detected", subjectId: { in: ids } } });
  const counter = async (name: string, labels: Record<string, string>) => new ScrapedMetrics(parsePrometheusText((await scrapeMetrics()).body)).sum(name, labels) ?? 0;
  const sendNative = async (to: string, value: bigint, gasLimit?: number) => (await funder.sendTransaction({ to, value, gasLimit })).wait();

  it("stores a token and a native deposit once each, and confirms each with one deposit.detected at the chain's confirmations", async () => {
    const [tokenTo, nativeTo] = [await inventoried(), await inventoried()];
    const outsider = Wallet.createRandom().address;
    const confirmedBefore = await counter("sweep_deposits_confirmed_total", { chain_id: String(CHAIN_ID), token: "USDT" });
    await chain.mintUsdt(outsider, 1n);
    await chain.mintUsdt(tokenTo, 5_000_000n);
    const minted = await chain.provider.getBlockNumber();
    const native = await sendNative(nativeTo, parseEther("0.25"));

    await watcher().runOnce();
    expect(await db.deposit.count({ where: { address: outsider } })).toBe(0);
    // The token's block has the native coin's on top: 2 confirmations.
    const [token] = await depositsOf(tokenTo);
    expect(token).toMatchObject({ token: "USDT", tokenAddress: getAddress(chain.usdt.address), blockNumber: BigInt(minted), status: "confirmed", confirmedAt: expect.any(Date) });
    expect(token!.amount.toFixed(0)).toBe("5000000");
    expect(await detectedEvents([token!.id])).toMatchObject([{ partnerId: hotWallet.partnerId }]);
    // The native coin's is the head: pending, not announced.
    const [coin] = await depositsOf(nativeTo);
    expect(coin).toMatchObject({ token: "tBNB", tokenAddress: null, txHash: native!.hash, logIndex: -1, blockNumber: BigInt(native!.blockNumber), status: "pending", confirmedAt: null });
    expect(coin!.amount.toFixed(0)).toBe(parseEther("0.25").toString());
    expect(await detectedEvents([coin!.id])).toEqual([]);

    await chain.provider.send("evm_mine", []);
    await watcher().runOnce();
    expect(await depositsOf(nativeTo)).toMatchObject([{ status: "confirmed" }]);
    expect(await detectedEvents([coin!.id])).toMatchObject([{ partnerId: hotWallet.partnerId }]);
    expect(await counter("sweep_deposits_confirmed_total", { chain_id: String(CHAIN_ID), token: "USDT" })).toBe(confirmedBefore + 1);

    // The blocks read again (a cursor put back, as by a second batcher that lost it): nothing twice.
    await db.chainWatchCursor.update({ where: { chainId: CHAIN_ID }, data: { nextBlock: BigInt(minted) } });
    await watcher().runOnce();
    expect(await depositsOf(tokenTo)).toHaveLength(1);
    expect(await depositsOf(nativeTo)).toHaveLength(1);
    expect(await detectedEvents([token!.id, coin!.id])).toHaveLength(2);
  });

  it("stores no deposit for native coin whose transaction failed, nor for a token that is not listed", async () => {
    const reverting = await inventoried();
    // Code that reverts whatever it is sent: the transfer is mined, and fails.
    await chain.provider.send("anvil_setCode", [reverting, "0x60006000fd"]);
    const failed = await sendNative(reverting, 1n, 60_000).catch((err: { receipt?: unknown }) => err.receipt);
    expect(failed).toMatchObject({ status: 0 });
    const lookAlike = await inventoried();
    // The listed token's own code at another address: its Transfer logs name a contract that is not listed.
    const impostor = Wallet.createRandom().address;
    await chain.provider.send("anvil_setCode", [impostor, await chain.provider.getCode(chain.usdt.address)]);
    await (await new Contract(impostor, ["function mint(address,uint256)"], funder).getFunction("mint")(lookAlike, 5_000_000n)).wait();
    expect(await new Contract(impostor, ["function balanceOf(address) view returns (uint256)"], chain.provider).getFunction("balanceOf")(lookAlike)).toBe(5_000_000n);

    await chain.provider.send("evm_mine", []);
    await watcher().runOnce();
    expect(await depositsOf(reverting)).toEqual([]);
    expect(await depositsOf(lookAlike)).toEqual([]);
  });

  it("removes a pending deposit whose block a reorg replaced, and never sends its event", async () => {
    const address = await inventoried();
    const removedBefore = await counter("sweep_deposits_removed_total", { chain_id: String(CHAIN_ID) });
    const reader = watcher();
    await chain.mintUsdt(address, 7n);
    await reader.runOnce();
    const [pending] = await depositsOf(address);
    expect(pending).toMatchObject({ status: "pending" });

    // The deposit's block is replaced by an empty one; the firewall sees it once a block follows.
    await chain.provider.send("anvil_reorg", [1, []]);
    await chain.provider.send("evm_mine", []);
    await reader.runOnce();
    expect(await depositsOf(address)).toEqual([]);
    expect(await counter("sweep_deposits_removed_total", { chain_id: String(CHAIN_ID) })).toBe(removedBefore + 1);

    await chain.provider.send("anvil_mine", ["0x3"]);
    await reader.runOnce();
    expect(await depositsOf(address)).toEqual([]);
    expect(await detectedEvents([pending!.id])).toEqual([]);
  });

  describe("behind a provider one of whose three backends lags the head", () => {
    let proxy: RpcFaultProxy;
    let provider: ChainProvider;
    beforeAll(async () => {
      proxy = await startRpcFaultProxy({ target: chain.rpcUrl, backends: 3 });
      provider = createProvider(proxy.url, CHAIN_ID, 5_000);
    });
    afterAll(async () => {
      provider.destroy();
      await proxy.close();
    });

    it("misses no deposit: a backend without the block fails the logs' read, which is made again", async () => {
      const reader = watcherOn(provider);
      await reader.runOnce();
      proxy.lag(3, { backend: 1 });
      const addresses = await Promise.all(Array.from({ length: 12 }, () => inventoried()));
      for (const address of addresses) {
        await chain.mintUsdt(address, 1_000n);
        await sendNative(address, 1_000n);
        await reader.runOnce();
      }
      await chain.provider.send("anvil_mine", ["0x2"]);
      for (let round = 0; round < 20 && (await db.deposit.count({ where: { address: { in: addresses }, status: "confirmed" } })) < 24; round++) await reader.runOnce();
      await proxy.clear();

      for (const address of addresses) expect((await depositsOf(address)).map((d) => [d.token, d.status])).toEqual([["USDT", "confirmed"], ["tBNB", "confirmed"]]);
      expect(proxy.counts().faults.lagged).toBeGreaterThan(0);
    });
  });
});
