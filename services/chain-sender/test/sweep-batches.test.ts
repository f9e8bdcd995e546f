import { connectChains, feeOnTransferTokens, loadChainConfigs } from "@sweep/chains";
import { ChainCallError, ChainClient } from "@sweep/rpc";
import { contractAt, contractFactory } from "@sweep/contracts";
import { toBigInt } from "@sweep/db";
import { claimIntoBatch } from "@sweep/lifecycle";
import { openMessaging, outboxDraft, type Consumer, type Messaging } from "@sweep/messaging";
import { PendingMetrics } from "@sweep/metrics";
import { Transaction, Wallet, parseEther, type Contract } from "ethers";
import { BatchSender } from "../src/send/batch-sender";
import { startSenderConsumer } from "../src/consumers";
import { gasLimitFromEstimate, gasLimitFromSimulation } from "../src/send/gas-limit";
import type { ChainWatcher } from "../src/watch/watcher";
import { CHAIN_ID, activeHotWallet, delegateOnChain, deleteTopology, logger, openSweepBatch, outboxOf, partnerWithGasWallet, registerHotWallet, revocationAuthorization, startHarness, type Harness } from "./support";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("chain-sender: batches through RabbitMQ onto anvil", () => {
  let h: Harness;
  let messaging: Messaging;
  let consumers: Consumer[];
  let watcher: ChainWatcher;

  beforeAll(async () => {
    h = await startHarness();
    messaging = await openMessaging({ url: RABBITMQ_URL, chainIds: [CHAIN_ID], prefix: h.prefix, logger, db: h.db });
    consumers = [await startSenderConsumer(messaging, { chainId: CHAIN_ID, sender: h.sender, deploys: h.deploys }, logger)];
    watcher = h.watcher();
    watcher.start();
  }, 60_000);

  afterAll(async () => {
    await watcher?.stop();
    await Promise.all((consumers ?? []).map((c) => c.stop()));
    if (messaging) {
      await deleteTopology(messaging);
      for (const closer of [...messaging.closers].reverse()) await closer.close();
    }
    await h?.stop();
  }, 60_000);

  /** What the batcher does: the message in the outbox, published by the relay. */
  async function announce(type: "batch.ready" | "hot_wallet.deploy", payload: { batchId: string; chainId: number } | { hotWalletId: string; chainId: number }) {
    await h.db.outboxMessage.create({ data: outboxDraft(type, payload as never, h.names) });
    messaging.relay?.wake();
  }

  async function batchEnds(batchId: string, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const batch = await h.db.batch.findUniqueOrThrow({ where: { id: batchId } });
      if (batch.status === "confirmed" || batch.status === "failed") return batch;
      if (Date.now() > deadline) throw new Error(`batch ${batchId} is still ${batch.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const usdt = () => contractAt("DevToken", h.chain.usdt.address, h.chain.provider);
  const tokenBalance = async (who: string) => (await usdt().getFunction("balanceOf")(who)) as bigint;

  it("sends first_new, repeat and native items as one type-4 transaction and records each item's outcome", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const [a, b, c, empty] = [Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom()];

    // A first batch delegates a: its next sweep is a repeat.
    await h.chain.mintUsdt(a.address, 1_000n);
    const first = await openSweepBatch(h, partner, hotWallet, [{ owner: a, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true }]);
    await announce("batch.ready", { batchId: first.batchId, chainId: CHAIN_ID });
    expect((await batchEnds(first.batchId)).status).toBe("confirmed");

    await h.chain.mintUsdt(a.address, 500n);
    await h.chain.mintUsdt(b.address, 700n);
    await h.chain.setBalance(c.address, parseEther("1"));
    const second = await openSweepBatch(h, partner, hotWallet, [
      { owner: a, tokenAddress: h.chain.usdt.address, kind: "repeat", withAuthorization: false },
      { owner: b, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true, keepOneUnit: true },
      { owner: empty, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true },
      { owner: c, tokenAddress: null, kind: "first", withAuthorization: true },
    ]);
    await announce("batch.ready", { batchId: second.batchId, chainId: CHAIN_ID });
    expect((await batchEnds(second.batchId)).status).toBe("confirmed");

    const [sent] = await h.db.chainTransaction.findMany({ where: { batchId: second.batchId } });
    expect(await h.db.chainTransaction.count({ where: { batchId: second.batchId } })).toBe(1);
    expect(sent).toMatchObject({ status: "confirmed", succeeded: true, nonce: 1n, replacement: 0 });
    expect(sent!.gasUsed).toBeGreaterThan(0n);
    expect(toBigInt(sent!.effectiveGasPrice!)).toBeGreaterThan(0n);
    const decoded = Transaction.from(sent!.rawTx);
    expect(decoded.type).toBe(4);
    expect(decoded.to).toBe(hotWallet.delegate);
    // The empty address was left out, its authorization with it; b's and c's are carried.
    expect(decoded.authorizationList!.map((auth) => auth.nonce)).toEqual([0n, 0n]);
    const onChain = await h.chain.provider.getTransaction(sent!.hash);
    expect(onChain?.blockNumber).toBe(Number(sent!.blockNumber));

    const items = await h.db.batchItem.findMany({ where: { batchId: second.batchId }, orderBy: { position: "asc" } });
    expect(items.map((i) => [i.outcome, i.amount === null ? null : toBigInt(i.amount)])).toEqual([
      ["swept", 500n],
      ["swept", 699n],
      [null, null],
      ["swept", parseEther("1")],
    ]);
    for (const item of [items[0]!, items[1]!, items[3]!]) expect(item.gasUsed).toBeGreaterThan(0n);
    expect(await tokenBalance(hotWallet.address)).toBe(2_199n);
    expect(await h.chain.provider.getBalance(hotWallet.address)).toBe(parseEther("1"));

    const rejected = await h.db.sweep.findUniqueOrThrow({ where: { id: second.sweepIds[2]! } });
    expect(rejected).toMatchObject({ status: "rejected", reason: "would_fail" });
    expect(await h.db.event.count({ where: { type: "sweep.rejected", subjectId: rejected.id } })).toBe(1);
    // The others wait for the ledger, which tx.outcome tells; the hot wallet's next batch need not wait for it.
    expect(await h.db.sweep.count({ where: { id: { in: second.sweepIds }, status: "processing" } })).toBe(3);
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toContainEqual({ chainId: CHAIN_ID, transactionId: sent!.id });
    expect((await outboxOf(h, "hot_wallet.wake")).map((m) => m.payload)).toContainEqual({ hotWalletId: hotWallet.id, chainId: CHAIN_ID });
    const state = await h.db.gasWalletChainState.findUniqueOrThrow({ where: { gasWalletId_chainId: { gasWalletId: partner.gasWalletId, chainId: CHAIN_ID } } });
    expect(state.nextNonce).toBe(2n);

    // A redelivered batch.ready for a confirmed batch changes nothing.
    await h.sender.send(second.batchId);
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(2);
    expect(await h.db.event.count({ where: { type: "sweep.rejected" } })).toBe(1);
  });

  it("settles a batch whose every item would fail without a transaction, and wakes what waited for its sweeps", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const owner = Wallet.createRandom();
    const { batchId, sweepIds } = await openSweepBatch(h, partner, hotWallet, [{ owner, tokenAddress: null, kind: "first_new", withAuthorization: true }]);
    // Waiting for that sweep: one of its address in another partner's hot wallet, and a revocation of it requested later.
    const other = await partnerWithGasWallet(h);
    const otherHotWallet = await activeHotWallet(h, other);
    await h.db.sweep.create({ data: { partnerId: other.partnerId, chainId: CHAIN_ID, hotWalletId: otherHotWallet.id, account: owner.address, token: "tBNB" } });
    const revocation = await h.db.revocation.create({ data: { partnerId: partner.partnerId, chainId: CHAIN_ID, account: owner.address, authorization: await revocationAuthorization(h, owner) } });

    await announce("batch.ready", { batchId, chainId: CHAIN_ID });
    expect((await batchEnds(batchId)).status).toBe("confirmed");
    expect(await h.db.chainTransaction.count({ where: { batchId } })).toBe(0);
    expect(await h.db.sweep.findUniqueOrThrow({ where: { id: sweepIds[0]! } })).toMatchObject({ status: "rejected", reason: "would_fail" });
    const wakes = (await outboxOf(h, "hot_wallet.wake")).map((m) => m.payload);
    expect(wakes).toContainEqual({ hotWalletId: hotWallet.id, chainId: CHAIN_ID });
    expect(wakes).toContainEqual({ hotWalletId: otherHotWallet.id, chainId: CHAIN_ID });
    expect((await outboxOf(h, "revocation.queued")).map((m) => m.payload)).toContainEqual({ revocationId: revocation.id, chainId: CHAIN_ID });
  });

  it("deploys a hot wallet's delegate through the factory, once", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await registerHotWallet(h, partner);
    await announce("hot_wallet.deploy", { hotWalletId: hotWallet.id, chainId: CHAIN_ID });
    const deadline = Date.now() + 30_000;
    let batch = await h.db.batch.findFirst({ where: { hotWalletId: hotWallet.id, purpose: "deploy_delegate" } });
    while (batch?.status !== "confirmed" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      batch = await h.db.batch.findFirst({ where: { hotWalletId: hotWallet.id, purpose: "deploy_delegate" } });
    }
    expect(batch?.status).toBe("confirmed");
    expect(await h.chain.provider.getCode(hotWallet.delegate)).not.toBe("0x");
    const [deployTx] = await h.db.chainTransaction.findMany({ where: { batchId: batch!.id } });
    expect(deployTx).toMatchObject({ status: "confirmed", succeeded: true, nonce: 0n });
    expect(Transaction.from(deployTx!.rawTx).type).toBe(2);
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toContainEqual({ chainId: CHAIN_ID, transactionId: deployTx!.id });
    expect((await h.db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).attempts).toBe(1);

    // Redelivered before the ledger marked the hot wallet active: the delegate is there, nothing new is sent.
    await h.deploys.handle(hotWallet.id);
    expect(await h.db.batch.count({ where: { hotWalletId: hotWallet.id } })).toBe(1);
  });

  it("fails a batch with insufficient_gas_balance when the gas wallet cannot pay, and sends nothing", async () => {
    const partner = await partnerWithGasWallet(h, 0n);
    const hotWallet = await activeHotWallet(h, partner);
    const owner = Wallet.createRandom();
    await h.chain.mintUsdt(owner.address, 10n);
    const { batchId, sweepIds } = await openSweepBatch(h, partner, hotWallet, [{ owner, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true }]);
    await announce("batch.ready", { batchId, chainId: CHAIN_ID });
    expect(await batchEnds(batchId)).toMatchObject({ status: "failed", reason: "insufficient_gas_balance" });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId, chainId: CHAIN_ID, reason: "insufficient_gas_balance" });
    // Back to queued is the ledger's decision.
    expect((await h.db.sweep.findUniqueOrThrow({ where: { id: sweepIds[0]! } })).status).toBe("processing");

    const unfundedDeploy = await registerHotWallet(h, partner);
    await h.deploys.handle(unfundedDeploy.id);
    expect(await h.db.batch.findFirst({ where: { hotWalletId: unfundedDeploy.id } })).toMatchObject({ status: "failed", reason: "insufficient_gas_balance" });
  });

  it("counts what its transactions in flight may still cost against the balance, and wakes the hot wallet once a batch is sent", async () => {
    const funds = parseEther("1");
    const partner = await partnerWithGasWallet(h, funds);
    const hotWallet = await activeHotWallet(h, partner);
    const openOne = async () => {
      const owner = Wallet.createRandom();
      await h.chain.mintUsdt(owner.address, 10n);
      return (await openSweepBatch(h, partner, hotWallet, [{ owner, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true }])).batchId;
    };
    // A transaction of this gas wallet the node has not mined yet, whose worst case takes all but 1 wei.
    const unmined = await h.db.chainTransaction.create({
      data: { chainId: CHAIN_ID, gasWalletId: partner.gasWalletId, nonce: 0n, hash: `0x${"ab".repeat(32)}`, rawTx: "0x", status: "broadcast", gasLimit: 1n, maxFeePerGas: (funds - 1n).toString(), maxPriorityFeePerGas: "1" },
    });
    const blocked = await openOne();
    await h.sender.send(blocked);
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: blocked } })).toMatchObject({ status: "failed", reason: "insufficient_gas_balance" });

    await h.db.chainTransaction.delete({ where: { id: unmined.id } });
    const sent = await openOne();
    await h.sender.send(sent);
    expect((await batchEnds(sent)).status).toBe("confirmed");
    // Woken once when it was sent (the next batch need not wait for it to be mined), once when it settled.
    const wakes = (await outboxOf(h, "hot_wallet.wake")).filter((m) => (m.payload as { hotWalletId: string }).hotWalletId === hotWallet.id);
    expect(wakes).toHaveLength(2);
  });

  it("sets the gas limit from the simulated gas, and asks eth_estimateGas when a check at that limit falls short", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const sendOne = async (sender: BatchSender) => {
      const owner = Wallet.createRandom();
      await h.chain.mintUsdt(owner.address, 1_000n);
      const { batchId } = await openSweepBatch(h, partner, hotWallet, [{ owner, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true }]);
      await sender.send(batchId);
      expect((await batchEnds(batchId)).status).toBe("confirmed");
      const [sent] = await h.db.chainTransaction.findMany({ where: { batchId } });
      expect(await tokenBalance(hotWallet.address)).toBeGreaterThanOrEqual(1_000n);
      return sent!;
    };

    const simulated = await sendOne(h.sender);
    const receipt = (await h.chain.provider.getTransactionReceipt(simulated.hash))!;
    expect(simulated.gasLimit).toBe(gasLimitFromSimulation(receipt.gasUsed, 2_000, (await h.chain.provider.getBlock("latest"))!.gasLimit));

    // A node whose simulation at the chosen limit runs out of gas: the limit then comes from eth_estimateGas.
    class ShortAtLimit extends ChainClient {
      override simulate(request: Parameters<ChainClient["simulate"]>[0]) {
        return request.gas === undefined ? super.simulate(request) : super.simulate({ ...request, gas: 100_000n });
      }
    }
    const estimating = await sendOne(new BatchSender({ db: h.db, names: h.names, client: new ShortAtLimit(h.client.chain), signers: h.signers, gasLimitMarginBps: 2_000, treasury: h.treasury, factory: h.factory, feeCeiling: h.feeCeiling, logger }));
    const { to, data, authorizationList } = Transaction.from(estimating.rawTx);
    const estimate = await h.chain.provider.estimateGas({ from: partner.gasWallet, to, data, authorizationList, type: 4, blockTag: Number(estimating.blockNumber) - 1 });
    expect(estimating.gasLimit).toBe(gasLimitFromEstimate(estimate, 2_000, (await h.chain.provider.getBlock("latest"))!.gasLimit));
    expect(estimating.gasLimit).not.toBe(gasLimitFromSimulation((await h.chain.provider.getTransactionReceipt(estimating.hash))!.gasUsed, 2_000, 30_000_000n));

    // A load-balanced endpoint whose backends differ: the first simulation answered, the check at the limit meets a backend without eth_simulateV1.
    class LacksSimulateAtLimit extends ChainClient {
      override simulate(request: Parameters<ChainClient["simulate"]>[0]) {
        if (request.gas === undefined) return super.simulate(request);
        return Promise.reject(new ChainCallError("eth_simulateV1", { error: { code: -32004, message: "Method eth_simulateV1 is not supported" } }));
      }
    }
    const unchecked = await sendOne(new BatchSender({ db: h.db, names: h.names, client: new LacksSimulateAtLimit(h.client.chain), signers: h.signers, gasLimitMarginBps: 2_000, treasury: h.treasury, factory: h.factory, feeCeiling: h.feeCeiling, logger }));
    const sent = Transaction.from(unchecked.rawTx);
    const estimated = await h.chain.provider.estimateGas({ from: partner.gasWallet, to: sent.to, data: sent.data, authorizationList: sent.authorizationList, type: 4, blockTag: Number(unchecked.blockNumber) - 1 });
    expect(unchecked.gasLimit).toBe(gasLimitFromEstimate(estimated, 2_000, (await h.chain.provider.getBlock("latest"))!.gasLimit));
  });

  it("records what the hot wallet received for a token marked fee-on-transfer, and never carries an address that re-delegated to code answering a fake amount", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const deployer = await h.chain.provider.getSigner(0);
    const feeToken = (await (await contractFactory("FeeOnTransferToken", deployer).deploy()).waitForDeployment()) as Contract;
    const fake = await (await contractFactory("FakeAmountDelegate", deployer).deploy()).waitForDeployment();
    const feeAddress = await feeToken.getAddress();
    // The chain's USDT listing pointed at the fee-on-transfer token and marked, as an operator would configure it.
    const [configured] = loadChainConfigs("testnet", [CHAIN_ID], { ...h.chain.env, [`TOKEN_${CHAIN_ID}_USDT`]: feeAddress, [`FEE_ON_TRANSFER_${CHAIN_ID}_USDT`]: "true" });
    const sender = new BatchSender({ db: h.db, names: h.names, client: h.client, signers: h.signers, gasLimitMarginBps: 2_000, treasury: h.treasury, factory: h.factory, feeOnTransferTokens: feeOnTransferTokens(configured!), feeCeiling: h.feeCeiling, logger });
    const [payer, liar] = [Wallet.createRandom(), Wallet.createRandom()];
    await (await feeToken.getFunction("mint")(payer.address, 1_000_000n)).wait();
    await (await feeToken.getFunction("mint")(liar.address, 1_000_000n)).wait();
    await delegateOnChain(h, liar, await fake.getAddress());

    const { batchId, sweepIds } = await openSweepBatch(h, partner, hotWallet, [
      { owner: payer, tokenAddress: feeAddress, kind: "first_new", withAuthorization: true },
      { owner: liar, tokenAddress: feeAddress, kind: "repeat", withAuthorization: false },
    ]);
    await sender.send(batchId);
    expect((await batchEnds(batchId)).status).toBe("confirmed");

    const received = (await feeToken.getFunction("balanceOf")(hotWallet.address)) as bigint;
    expect(received).toBe(990_000n); // 1% burnt on the way
    const items = await h.db.batchItem.findMany({ where: { batchId }, orderBy: { position: "asc" } });
    expect(items.map((i) => [i.outcome, i.amount === null ? null : toBigInt(i.amount)])).toEqual([
      ["swept", received],
      [null, null],
    ]);
    expect(await h.db.sweep.findUniqueOrThrow({ where: { id: sweepIds[1]! } })).toMatchObject({ status: "rejected", reason: "would_fail" });
    expect((await feeToken.getFunction("balanceOf")(liar.address)) as bigint).toBe(1_000_000n);
  });

  it("signs nothing while a base fee spike since the claim keeps a new transaction above its fee ceiling: the sweeps wait queued, a deployment stays open, and both go once it falls", async () => {
    const gwei = 1_000_000_000n;
    const nextBaseFee = async (wei: bigint) => {
      await h.chain.provider.send("anvil_setNextBlockBaseFeePerGas", [`0x${wei.toString(16)}`]);
      await h.chain.provider.send("evm_mine", []);
    };
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const owner = Wallet.createRandom();
    await h.chain.mintUsdt(owner.address, 1_000n);
    const { batchId, sweepIds } = await openSweepBatch(h, partner, hotWallet, [{ owner, tokenAddress: h.chain.usdt.address, kind: "first_new", withAuthorization: true }]);
    const sweepId = sweepIds[0]!;
    expect(h.feeCeiling.maxFeePerGas).toBe(20n * gwei);

    // Claimed at a calm fee; before the sender signs, the base fee jumps over chain 97's 20 gwei ceiling.
    await nextBaseFee(50n * gwei);
    const heldAt = Date.now();
    await h.sender.send(batchId);
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);
    const waiting = await h.db.sweep.findUniqueOrThrow({ where: { id: sweepId } });
    expect(waiting).toMatchObject({ status: "queued", reason: "waiting_for_gas_price", attempts: 0, batchId: null });
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan(heldAt);
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({ status: "confirmed" });
    expect(await h.db.event.count({ where: { subjectId: sweepId } })).toBe(0);

    // A deployment (no items to send back) stays open; its message comes again after the retry pause.
    const pending = await registerHotWallet(h, partner);
    await announce("hot_wallet.deploy", { hotWalletId: pending.id, chainId: CHAIN_ID });
    let deploy = null;
    for (const deadline = Date.now() + 10_000; !deploy && Date.now() < deadline; ) {
      deploy = await h.db.batch.findFirst({ where: { hotWalletId: pending.id, purpose: "deploy_delegate" } });
      if (!deploy) await new Promise((r) => setTimeout(r, 100));
    }
    expect(await h.sender.send(deploy!.id)).toEqual({ retryAfterMs: expect.any(Number) });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: deploy!.id } })).toMatchObject({ status: "open" });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);

    // The fee falls: the deployment goes by itself, and the sweeps' next claim (as the batcher makes it) goes too.
    await nextBaseFee(1n * gwei);
    expect((await batchEnds(deploy!.id)).status).toBe("confirmed");
    const again = await h.db.$transaction(async (tx) => {
      const batch = await tx.batch.create({ data: { chainId: CHAIN_ID, gasWalletId: partner.gasWalletId, hotWalletId: hotWallet.id, purpose: "sweep" } });
      await tx.batchItem.create({ data: { batchId: batch.id, position: 0, sweepId, withAuthorization: true, kind: "first_new" } });
      await claimIntoBatch(tx, h.names, new PendingMetrics(), "sweep", { chainId: CHAIN_ID, batchId: batch.id, ids: [sweepId] });
      return batch.id;
    });
    messaging.relay?.wake();
    expect((await batchEnds(again)).status).toBe("confirmed");
    expect(await h.db.sweep.findUniqueOrThrow({ where: { id: sweepId } })).toMatchObject({ status: "processing", reason: null, attempts: 1 });
    const [sent] = await h.db.chainTransaction.findMany({ where: { batchId: again } });
    expect(sent).toMatchObject({ status: "confirmed", succeeded: true });
    expect(await tokenBalance(hotWallet.address)).toBe(1_000n);
  }, 60_000);

  it("fails a batch with chain_unavailable when the node does not answer", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const { batchId } = await openSweepBatch(h, partner, hotWallet, [{ owner: Wallet.createRandom(), tokenAddress: null, kind: "first_new", withAuthorization: true }]);
    const deadNode = connectChains(loadChainConfigs("testnet", [CHAIN_ID], { [`RPC_URL_${CHAIN_ID}`]: "http://127.0.0.1:1" }), { timeoutMs: 2_000 })[0]!;
    try {
      const sender = new BatchSender({ db: h.db, names: h.names, client: deadNode.client, signers: h.signers, gasLimitMarginBps: 2_000, treasury: h.treasury, factory: h.factory, feeCeiling: h.feeCeiling, logger });
      await sender.send(batchId);
    } finally {
      deadNode.provider.destroy();
    }
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({ status: "failed", reason: "chain_unavailable" });
  });
});
