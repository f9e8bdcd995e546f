import { Transaction, Wallet, ZeroAddress, parseEther, type BaseWallet } from "ethers";
import { ChainClient } from "@sweep/rpc";
import { connectChains, loadChainConfigs, type ServedChain } from "@sweep/chains";
import { startRpcFaultProxy, type RpcFaultProxy } from "@sweep/testkit";
import { BatchSender } from "../src/send/batch-sender";
import { gasLimitFromEstimate } from "../src/send/gas-limit";
import {
  CHAIN_ID,
  activeHotWallet,
  delegateOnChain,
  logger,
  openRevocationBatch,
  outboxOf,
  partnerWithGasWallet,
  revocationAuthorization,
  startHarness,
  watchUntil,
  type FundedPartner,
  type Harness,
} from "./support";

/** A node that answers everything but the accounts' code. */
class NoCodeAnswers extends ChainClient {
  override async codeAt(): Promise<string> {
    throw new Error("no answer");
  }
}

describe("chain-sender: revocation batches on anvil", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  const codeOf = (address: string) => h.chain.provider.getCode(address);
  const batchOf = (batchId: string) => h.db.batch.findUniqueOrThrow({ where: { id: batchId } });
  const itemsOf = (batchId: string) => h.db.batchItem.findMany({ where: { batchId }, orderBy: { position: "asc" } });
  const confirmed = (batchId: string) => async () => ((await batchOf(batchId)).status === "confirmed" ? true : undefined);

  /** A partner's deposit addresses, each delegated to its hot wallet's delegate on chain. */
  async function delegatedDeposits(partner: FundedPartner, count: number): Promise<BaseWallet[]> {
    const hotWallet = await activeHotWallet(h, partner);
    const deposits = Array.from({ length: count }, () => Wallet.createRandom(h.chain.provider));
    for (const deposit of deposits) {
      await delegateOnChain(h, deposit, hotWallet.delegate);
      expect(await codeOf(deposit.address)).toBe(`0xef0100${hotWallet.delegate.slice(2).toLowerCase()}`);
    }
    return deposits;
  }

  async function revocationsOf(deposits: BaseWallet[]) {
    return Promise.all(deposits.map(async (d) => ({ account: d.address, authorization: await revocationAuthorization(h, d) })));
  }

  it("sends the batch's authorizations of the zero address in one type-4 transaction to the gas wallet itself; the delegations are removed", async () => {
    const partner = await partnerWithGasWallet(h);
    const deposits = await delegatedDeposits(partner, 2);
    const { batchId, revocationIds } = await openRevocationBatch(h, partner, await revocationsOf(deposits));

    await h.sender.send(batchId);
    expect((await batchOf(batchId)).status).toBe("sent");
    const [sent] = await h.db.chainTransaction.findMany({ where: { batchId } });
    const decoded = Transaction.from(sent!.rawTx);
    expect(decoded).toMatchObject({ type: 4, from: partner.gasWallet, to: partner.gasWallet, data: "0x", value: 0n });
    // Each deposit address's nonce is 1: applying its delegation counted.
    expect(decoded.authorizationList!.map((a) => [a.address, a.nonce, a.chainId])).toEqual([
      [ZeroAddress, 1n, 97n],
      [ZeroAddress, 1n, 97n],
    ]);

    // Mined, but the node does not give the accounts' code: nothing is settled until it does.
    const blind = h.watcher({ client: new NoCodeAnswers(h.client.chain) });
    await watchUntil(blind, "the transaction mined", async () => ((await h.chain.provider.getTransactionReceipt(sent!.hash)) ? true : undefined));
    await blind.runOnce();
    expect(await batchOf(batchId)).toMatchObject({ status: "sent" });
    expect((await h.db.chainTransaction.findUniqueOrThrow({ where: { id: sent!.id } })).status).toBe("broadcast");
    expect((await itemsOf(batchId)).map((i) => i.outcome)).toEqual([null, null]);

    await watchUntil(h.watcher(), "the batch confirmed", confirmed(batchId));
    for (const deposit of deposits) expect(await codeOf(deposit.address)).toBe("0x");
    expect((await itemsOf(batchId)).map((i) => i.outcome)).toEqual(["revoked", "revoked"]);
    const mined = await h.db.chainTransaction.findUniqueOrThrow({ where: { id: sent!.id } });
    expect(mined).toMatchObject({ status: "confirmed", succeeded: true });
    expect(mined.gasUsed).toBeGreaterThan(0n);
    const estimate = await h.chain.provider.estimateGas({ from: partner.gasWallet, to: partner.gasWallet, data: "0x", authorizationList: decoded.authorizationList, type: 4, blockTag: Number(mined.blockNumber) - 1 });
    expect(mined.gasLimit).toBe(gasLimitFromEstimate(estimate, 2_000, (await h.chain.provider.getBlock("latest"))!.gasLimit));
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toContainEqual({ chainId: 97, transactionId: sent!.id });
    // A revocation batch has no hot wallet to wake; settling the revocations is the ledger's work.
    expect(await outboxOf(h, "hot_wallet.wake")).toHaveLength(0);
    expect(await h.db.revocation.count({ where: { id: { in: revocationIds }, status: "processing" } })).toBe(2);

    // A redelivered batch.ready for a confirmed batch changes nothing.
    await h.sender.send(batchId);
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(1);
  });

  it("wakes the partner's revocation round once the batch is sent: its next batch need not wait for this one to be mined", async () => {
    const partner = await partnerWithGasWallet(h);
    const [inBatch, waiting] = await delegatedDeposits(partner, 2);
    const { batchId } = await openRevocationBatch(h, partner, await revocationsOf([inBatch!]));
    // Queued while the batch was being prepared: the batcher's revocation round held it back.
    const queued = await h.db.revocation.create({
      data: { partnerId: partner.partnerId, chainId: CHAIN_ID, account: waiting!.address, authorization: (await revocationsOf([waiting!]))[0]!.authorization },
    });
    const wakesOf = async () => (await outboxOf(h, "revocation.queued")).map((m) => m.payload).filter((p) => (p as { revocationId: string }).revocationId === queued.id);
    expect(await wakesOf()).toEqual([]);

    await h.sender.send(batchId);
    expect((await batchOf(batchId)).status).toBe("sent");
    expect(await wakesOf()).toEqual([{ revocationId: queued.id, chainId: CHAIN_ID }]);
  });

  it("records not_applied for an account whose nonce moved after the claim, and revoked for the others of the transaction", async () => {
    const partner = await partnerWithGasWallet(h);
    const [moved, kept] = await delegatedDeposits(partner, 2);
    const { batchId } = await openRevocationBatch(h, partner, await revocationsOf([moved!, kept!]));
    // Between the claim and the send the deposit address sends a transaction of its own: its authorization's nonce is stale.
    await h.chain.setBalance(moved!.address, parseEther("1"));
    await (await moved!.sendTransaction({ to: Wallet.createRandom().address, value: 1n })).wait();

    await h.sender.send(batchId);
    await watchUntil(h.watcher(), "the batch confirmed", confirmed(batchId));
    const [mined] = await h.db.chainTransaction.findMany({ where: { batchId } });
    expect(mined).toMatchObject({ status: "confirmed", succeeded: true });
    expect(await codeOf(moved!.address)).not.toBe("0x");
    expect(await codeOf(kept!.address)).toBe("0x");
    expect((await itemsOf(batchId)).map((i) => i.outcome)).toEqual(["not_applied", "revoked"]);
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toContainEqual({ chainId: 97, transactionId: mined!.id });
  });

  it("fails the batch with insufficient_gas_balance when the gas wallet cannot pay, and sends nothing", async () => {
    const partner = await partnerWithGasWallet(h, 0n);
    const deposits = await delegatedDeposits(partner, 1);
    const { batchId, revocationIds } = await openRevocationBatch(h, partner, await revocationsOf(deposits));

    await h.sender.send(batchId);
    expect(await batchOf(batchId)).toMatchObject({ status: "failed", reason: "insufficient_gas_balance" });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId, chainId: 97, reason: "insufficient_gas_balance" });
    // Back to queued is the ledger's decision.
    expect((await h.db.revocation.findUniqueOrThrow({ where: { id: revocationIds[0]! } })).status).toBe("processing");
    expect(await codeOf(deposits[0]!.address)).not.toBe("0x");
  });

  it("fails the attempt (internal) when a stored authorization cannot be read, sending none of the batch", async () => {
    const partner = await partnerWithGasWallet(h);
    const [readable, unreadable] = await delegatedDeposits(partner, 2);
    const [good] = await revocationsOf([readable!]);
    const { batchId } = await openRevocationBatch(h, partner, [good!, { account: unreadable!.address, authorization: { chain_id: 97, address: ZeroAddress } }]);

    await h.sender.send(batchId);
    expect(await batchOf(batchId)).toMatchObject({ status: "failed", reason: "internal" });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId, chainId: 97, reason: "internal" });
  });

  it("settles a batch whose revocations were all settled otherwise without a transaction", async () => {
    const partner = await partnerWithGasWallet(h);
    const deposits = await delegatedDeposits(partner, 1);
    const { batchId, revocationIds } = await openRevocationBatch(h, partner, await revocationsOf(deposits));
    await h.db.revocation.update({ where: { id: revocationIds[0]! }, data: { status: "rejected", reason: "stale_authorization" } });

    await h.sender.send(batchId);
    expect((await batchOf(batchId)).status).toBe("confirmed");
    expect(await h.db.chainTransaction.count({ where: { batchId } })).toBe(0);
    expect(await outboxOf(h, "hot_wallet.wake")).toHaveLength(0);
  });

  describe("through a node that refuses (the fault proxy in front of anvil)", () => {
    let proxy: RpcFaultProxy;
    let served: ServedChain;
    const senderThrough = (txFeeCap?: bigint) =>
      new BatchSender({ db: h.db, names: h.names, client: served.client, signers: h.signers, gasLimitMarginBps: 2_000, treasury: h.treasury, factory: h.factory, feeCeiling: h.feeCeiling, txFeeCap, logger });
    const revocationRows = (ids: string[]) => Promise.all(ids.map((id) => h.db.revocation.findUniqueOrThrow({ where: { id } })));
    const transactionsOf = (batchId: string) => h.db.chainTransaction.findMany({ where: { batchId }, orderBy: { replacement: "asc" } });
    const authorities = (rawTx: string) => Transaction.from(rawTx).authorizationList!.map((a) => a.signature);

    beforeAll(async () => {
      proxy = await startRpcFaultProxy({ target: h.chain.rpcUrl, backends: 1 });
      served = connectChains(loadChainConfigs("testnet", [CHAIN_ID], { ...h.chain.env, [`RPC_URL_${CHAIN_ID}`]: proxy.url }), { timeoutMs: 5_000 })[0]!;
    });
    afterAll(async () => {
      served?.provider.destroy();
      await proxy?.close();
    });
    afterEach(() => proxy.clear());

    it("leaves out a revocation whose account has a transaction of its own in the pool: the others go at the refused nonce, it back to queued, its attempt taken back", async () => {
      const partner = await partnerWithGasWallet(h);
      const deposits = await delegatedDeposits(partner, 3);
      const { batchId, revocationIds } = await openRevocationBatch(h, partner, await revocationsOf(deposits));
      proxy.reserveAuthorities([deposits[1]!.address]);
      const headBefore = await h.chain.provider.getBlockNumber();

      await senderThrough().send(batchId);
      const [refused, sent] = await transactionsOf(batchId);
      expect([refused?.status, sent?.status, sent?.nonce]).toEqual(["dropped", "broadcast", refused?.nonce]);
      // Given up at the head: should a pool that took it unheard have it mined, AbandonedTransactions restores it.
      expect(Number(refused!.abandonedAtBlock)).toBeGreaterThanOrEqual(headBefore);
      expect(sent!.abandonedAtBlock).toBeNull();
      expect(authorities(refused!.rawTx)).toHaveLength(3);
      expect(authorities(sent!.rawTx)).toHaveLength(2);
      expect((await revocationRows(revocationIds)).map((r) => [r.status, r.attempts, r.batchId])).toEqual([
        ["processing", 1, batchId],
        ["queued", 0, null],
        ["processing", 1, batchId],
      ]);
      expect(proxy.counts().faults.poolRefused).toBe(1);

      await watchUntil(h.watcher(), "the batch confirmed", confirmed(batchId));
      expect(await Promise.all(deposits.map((d) => codeOf(d.address)))).toEqual(["0x", expect.stringMatching(/^0xef0100/), "0x"]);
    });

    it("restores the refused transaction should a pool that took it unheard have it mined: confirmed with the three revocations, the smaller one at its nonce replaced, tx.outcome for it alone", async () => {
      const partner = await partnerWithGasWallet(h);
      const deposits = await delegatedDeposits(partner, 3);
      const { batchId, revocationIds } = await openRevocationBatch(h, partner, await revocationsOf(deposits));
      proxy.reserveAuthorities([deposits[1]!.address]);
      const anvil = h.chain.provider;
      await anvil.send("evm_setAutomine", [false]);
      let refused, smaller;
      try {
        await senderThrough().send(batchId);
        [refused, smaller] = await transactionsOf(batchId);
        // Another provider's pool had the refused one, and it wins the nonce: the smaller one never reaches a block.
        await anvil.send("anvil_dropTransaction", [smaller!.hash]);
        await anvil.send("eth_sendRawTransaction", [refused!.rawTx]);
        await anvil.send("evm_mine", []);
      } finally {
        await anvil.send("evm_setAutomine", [true]);
      }
      const restored = async () => {
        await anvil.send("evm_mine", []);
        return (await h.db.chainTransaction.findUniqueOrThrow({ where: { id: refused!.id } })).status === "confirmed" ? true : undefined;
      };
      await watchUntil(h.watcher(), "the refused transaction restored", restored);
      expect(await Promise.all(deposits.map((d) => codeOf(d.address)))).toEqual(["0x", "0x", "0x"]);
      expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: smaller!.id } })).toMatchObject({ status: "replaced" });
      expect(await batchOf(batchId)).toMatchObject({ status: "confirmed", reason: null });
      expect((await revocationRows(revocationIds)).map((r) => [r.status, r.batchId])).toEqual(revocationIds.map(() => ["processing", batchId]));
      expect((await itemsOf(batchId)).map((i) => i.outcome)).toEqual(["revoked", "revoked", "revoked"]);
      const outcomes = (await outboxOf(h, "tx.outcome")).map((m) => (m.payload as { transactionId: string }).transactionId);
      expect(outcomes.filter((id) => id === refused!.id || id === smaller!.id)).toEqual([refused!.id]);
    });

    it("sends what fits under TX_FEE_CAP and puts the rest back in the queue, not as an attempt", async () => {
      const partner = await partnerWithGasWallet(h);
      const deposits = await delegatedDeposits(partner, 3);
      const { batchId, revocationIds } = await openRevocationBatch(h, partner, await revocationsOf(deposits));
      const head = (await h.chain.provider.getBlock("latest"))!;
      const tip = BigInt((await h.chain.provider.send("eth_maxPriorityFeePerGas", [])) as string);
      // Two authorizations need 71,000 gas, 85,200 with the sender's 20%; three 115,200.
      const cap = 95_000n * (2n * head.baseFeePerGas! + tip);

      const refusedBefore = proxy.counts().faults.poolRefused;
      await senderThrough(cap).send(batchId);
      const [sent, ...others] = await transactionsOf(batchId);
      expect(others).toEqual([]);
      expect(authorities(sent!.rawTx)).toHaveLength(2);
      expect(sent!.gasLimit * BigInt(sent!.maxFeePerGas.toFixed())).toBeLessThanOrEqual(cap);
      expect((await revocationRows(revocationIds)).map((r) => [r.status, r.attempts])).toEqual([
        ["processing", 1],
        ["processing", 1],
        ["queued", 0],
      ]);
      // Nothing over the cap reached the node.
      expect(proxy.counts().faults.poolRefused).toBe(refusedBefore);
    });
  });
});
