import { toBigInt } from "@sweep/db";
import { ChainClient } from "@sweep/rpc";
import { rejectWork, settleWork } from "@sweep/lifecycle";
import { PendingMetrics, scrapeMetrics } from "@sweep/metrics";
import { ScrapedMetrics, parsePrometheusText } from "@sweep/testkit";
import { Transaction, Wallet, parseEther, toQuantity } from "ethers";
import { BatchSender } from "../src/send/batch-sender";
import { broadcastStored } from "../src/broadcast";
import { DeployRequests } from "../src/send/deploy-requests";
import { contentOf } from "../src/signing";
import {
  CHAIN_ID,
  activeHotWallet,
  delegateOnChain,
  logger,
  openRevocationBatch,
  outboxOf,
  partnerWithGasWallet,
  registerHotWallet,
  revocationAuthorization,
  startHarness,
  watchUntil,
  type FundedPartner,
  type Harness,
} from "./support";

/** A node that takes nothing at the moment of broadcasting: the process is as good as dead between storing and broadcasting. */
class NodeGoneAtBroadcast extends ChainClient {
  override async broadcast(): Promise<"unavailable"> {
    return "unavailable";
  }
}

/**
 * A load-balanced endpoint whose receipts come from a backend far behind the one that counted the
 * nonces and read the head: no receipt yet, whatever the head.
 */
class LaggingReceipts extends ChainClient {
  lagging = true;

  override async receipt(hash: string) {
    return this.lagging ? null : super.receipt(hash);
  }
}

describe("chain-sender: watching stored transactions on anvil", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterEach(async () => {
    await h.chain.provider.send("evm_setAutomine", [true]);
  });

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  const automine = (on: boolean) => h.chain.provider.send("evm_setAutomine", [on]);
  const mine = () => h.chain.provider.send("evm_mine", []);
  const mineBlocks = async (blocks: number) => {
    if (blocks > 0) await h.chain.provider.send("anvil_mine", [toQuantity(blocks)]);
  };
  /** This process's counter (or a histogram's _count) on the test chain, over the series with these labels; 0 before any. */
  const counted = async (name: string, labels: Record<string, string> = {}) =>
    new ScrapedMetrics(parsePrometheusText((await scrapeMetrics()).body)).sum(name, { chain_id: String(CHAIN_ID), ...labels }) ?? 0;
  const transactionsOf = (partner: FundedPartner) => h.db.chainTransaction.findMany({ where: { gasWalletId: partner.gasWalletId }, orderBy: [{ nonce: "asc" }, { replacement: "asc" }] });

  /** A pending hot wallet's deploy batch, sent by the real sender: one stored transaction. */
  async function sendDeploy(partner: FundedPartner, deploys = h.deploys) {
    const hotWallet = await registerHotWallet(h, partner);
    await deploys.handle(hotWallet.id);
    const batch = await h.db.batch.findFirstOrThrow({ where: { hotWalletId: hotWallet.id } });
    return { hotWallet, batch };
  }

  it("replaces a stuck transaction at the same nonce with the same content and fees 12.5% higher; only one is mined", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const watcher = h.watcher({ replaceAfterMs: 300 });

    const replaced = await watchUntil(watcher, "a replacement", async () => {
      const rows = await transactionsOf(partner);
      return rows.length >= 2 ? rows : undefined;
    });
    const [original, replacement] = replaced;
    expect(replacement).toMatchObject({ nonce: original!.nonce, replacement: 1, batchId: batch.id, status: "broadcast" });
    expect(toBigInt(replacement!.maxFeePerGas) * 8n).toBeGreaterThanOrEqual(toBigInt(original!.maxFeePerGas) * 9n);
    expect(toBigInt(replacement!.maxPriorityFeePerGas) * 8n).toBeGreaterThanOrEqual(toBigInt(original!.maxPriorityFeePerGas) * 9n);
    expect(contentOf(replacement!.rawTx)).toEqual(contentOf(original!.rawTx));
    expect(Transaction.from(replacement!.rawTx).from).toBe(partner.gasWallet);

    await mine();
    await watchUntil(watcher, "the batch confirmed", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status === "confirmed" ? true : undefined));
    const rows = await transactionsOf(partner);
    const confirmed = rows.filter((r) => r.status === "confirmed");
    expect(confirmed).toHaveLength(1);
    expect(rows.filter((r) => r.status !== "confirmed").every((r) => r.status === "replaced")).toBe(true);
    for (const row of rows) expect(Boolean(await h.chain.provider.getTransactionReceipt(row.hash))).toBe(row.status === "confirmed");
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(1);
    // Each replacement outbids the one before it.
    for (let i = 1; i < rows.length; i++) expect(toBigInt(rows[i]!.maxFeePerGas) * 8n).toBeGreaterThanOrEqual(toBigInt(rows[i - 1]!.maxFeePerGas) * 9n);
  });

  it("on a chain that bumps no fees (Arbitrum), leaves a stuck transaction in the pool as it is, and settles it once mined", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const watcher = h.watcher({ replaceAfterMs: 0, bumpsFees: false });
    // Rounds enough for a replacement at any chain's threshold: none comes.
    for (let round = 0; round < 5; round++) await watcher.runOnce();
    const [only, ...others] = await transactionsOf(partner);
    expect(others).toEqual([]);
    expect(only).toMatchObject({ replacement: 0, status: "broadcast" });

    await mine();
    await watchUntil(watcher, "the batch confirmed", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status === "confirmed" ? true : undefined));
    expect(await transactionsOf(partner)).toHaveLength(1);
  });

  it("on a chain that settles at finality (CONFIRMATIONS=finalized), waits for the node's finalized block, however deep the receipt", async () => {
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [sent] = await transactionsOf(partner);
    const finalizedChain = new ChainClient({ ...h.client.chain, finality: "finalized" });
    const watcher = h.watcher({ client: finalizedChain });
    // anvil finalizes 64 blocks behind its head (two epochs of 32 slots): 40 blocks deep is past any depth configured here, not finalized.
    await mineBlocks(40);
    for (let round = 0; round < 3; round++) await watcher.runOnce();
    expect((await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("sent");
    expect((await h.db.chainTransaction.findUniqueOrThrow({ where: { id: sent!.id } })).status).toBe("broadcast");

    await mineBlocks(40);
    await watchUntil(watcher, "the batch confirmed at finality", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status === "confirmed" ? true : undefined));
    const receipt = (await h.chain.provider.getTransactionReceipt(sent!.hash))!;
    expect((await h.chain.provider.getBlock("finalized"))!.number).toBeGreaterThanOrEqual(receipt.blockNumber);
  });

  it("resumes a transaction stored before a crash that kept it from the node, without signing another", async () => {
    const partner = await partnerWithGasWallet(h);
    const deadAtBroadcast = new NodeGoneAtBroadcast(h.client.chain);
    const sender = new BatchSender({ db: h.db, names: h.names, client: deadAtBroadcast, signers: h.signers, gasLimitMarginBps: 2_000, treasury: h.treasury, factory: h.factory, feeCeiling: h.feeCeiling, logger });
    const { batch } = await sendDeploy(partner, new DeployRequests({ db: h.db, client: h.client, sender, logger }));

    const [stored] = await transactionsOf(partner);
    expect(stored).toMatchObject({ status: "signed", nonce: 0n });
    expect(await h.client.isKnown(stored!.hash)).toBe(false);
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "sent" });

    // A redelivered hot_wallet.deploy / batch.ready finds the batch sent and leaves it to the watcher.
    await h.sender.send(batch.id);
    expect(await transactionsOf(partner)).toHaveLength(1);

    const restarted = h.watcher();
    await watchUntil(restarted, "the stored transaction confirmed", async () => ((await h.db.chainTransaction.findUniqueOrThrow({ where: { id: stored!.id } })).status === "confirmed" ? true : undefined));
    const rows = await transactionsOf(partner);
    expect(rows).toHaveLength(1);
    expect((await h.chain.provider.getTransactionReceipt(stored!.hash))?.status).toBe(1);
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "confirmed" });
  });

  it("outbids a base fee that climbed above a lost transaction's fee cap, up to the fee ceiling", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [lost] = await transactionsOf(partner);
    await h.chain.provider.send("anvil_dropTransaction", [lost!.hash]);
    // The base fee jumps above the transaction's fee cap (the node now refuses it), with room under the chain's ceiling.
    const baseFee = h.feeCeiling.maxFeePerGas / 4n;
    expect(baseFee).toBeGreaterThan(toBigInt(lost!.maxFeePerGas));
    await h.chain.provider.send("anvil_setNextBlockBaseFeePerGas", ["0x" + baseFee.toString(16)]);
    await mine();

    const watcher = h.watcher({ replaceAfterMs: 0 });
    const replacement = await watchUntil(watcher, "a replacement the node takes", async () => {
      const rows = await transactionsOf(partner);
      return rows.find((r) => r.replacement > 0 && r.status === "broadcast");
    });
    expect(toBigInt(replacement.maxFeePerGas)).toBeGreaterThanOrEqual(baseFee * 2n);
    expect(contentOf(replacement.rawTx)).toEqual(contentOf(lost!.rawTx));
    await mine();
    await watchUntil(watcher, "the batch confirmed", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status === "confirmed" ? true : undefined));
    expect((await transactionsOf(partner)).filter((r) => r.status === "confirmed")).toHaveLength(1);
  });

  it("keeps a stuck transaction whose replacement would cross the partner's fee ceiling, sends it again, and never drops it", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [stuck] = await transactionsOf(partner);
    // The partner's own ceiling is the fee the transaction offers: no 12.5% raise fits under it.
    await h.db.partnerFeeCeiling.create({ data: { partnerId: partner.partnerId, chainId: CHAIN_ID, maxFeePerGas: stuck!.maxFeePerGas } });
    const before = await counted("sweep_replacements_at_fee_ceiling_total");
    const watcher = h.watcher({ replaceAfterMs: 0, dropAfterMs: 0 });
    await watchUntil(watcher, "the transaction kept at its ceiling", async () => ((await counted("sweep_replacements_at_fee_ceiling_total")) > before ? true : undefined));
    for (let round = 0; round < 3; round++) await watcher.runOnce();

    const rows = await transactionsOf(partner);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: stuck!.id, status: "broadcast" });
    expect(await h.chain.provider.send("eth_getTransactionByHash", [stuck!.hash])).not.toBeNull();
    await mine();
    await watchUntil(watcher, "the batch confirmed", async () => ((await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status === "confirmed" ? true : undefined));
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: stuck!.id } })).toMatchObject({ status: "confirmed" });
  });

  it("treats 'already known' and 'nonce too low' for a stored transaction as sent", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    await sendDeploy(partner);
    const [stored] = await transactionsOf(partner);
    expect(stored!.status).toBe("broadcast");

    // As if the process died after the node took it and before it was marked.
    await h.db.chainTransaction.update({ where: { id: stored!.id }, data: { status: "signed", broadcastAt: null } });
    const watcher = h.watcher();
    await watcher.runOnce();
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: stored!.id } })).toMatchObject({ status: "broadcast" });
    expect(await broadcastStored(h.db, h.client, stored!, logger)).toBe("known");

    await mine();
    expect(await broadcastStored(h.db, h.client, stored!, logger)).toBe("nonce_used");
    await watchUntil(watcher, "the transaction confirmed", async () => ((await h.db.chainTransaction.findUniqueOrThrow({ where: { id: stored!.id } })).status === "confirmed" ? true : undefined));
    expect(await transactionsOf(partner)).toHaveLength(1);
  });

  it("lets two instances watch at once: replacements never collide and the outcome is recorded once", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const before = { replacements: await counted("sweep_replacements_total"), confirmations: await counted("sweep_confirmation_seconds_count", { purpose: "deploy_delegate" }) };
    const [first, second] = [h.watcher({ replaceAfterMs: 0 }), h.watcher({ replaceAfterMs: 0 })];
    for (let round = 0; round < 3; round++) await Promise.all([first.runOnce(), second.runOnce()]);
    const rows = await transactionsOf(partner);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.map((r) => r.replacement)).toEqual(rows.map((_r, i) => i));
    for (const row of rows) expect(contentOf(row.rawTx)).toEqual(contentOf(rows[0]!.rawTx));

    await mine();
    await Promise.all([first.runOnce(), second.runOnce()]);
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "confirmed" });
    const settled = await transactionsOf(partner);
    expect(settled.filter((r) => r.status === "confirmed")).toHaveLength(1);
    const outcomes = (await outboxOf(h, "tx.outcome")).filter((m) => settled.some((r) => (m.payload as { transactionId: string }).transactionId === r.id));
    expect(outcomes).toHaveLength(1);
    // The metrics count what was stored and settled, not what each watcher tried.
    expect(await counted("sweep_replacements_total")).toBe(before.replacements + rows.length - 1);
    expect(await counted("sweep_confirmation_seconds_count", { purpose: "deploy_delegate" })).toBe(before.confirmations + 1);
  });

  it("closes a nonce gap below its transactions with a self-transfer of 0", async () => {
    const partner = await partnerWithGasWallet(h);
    // Nonce 0 was taken by a transaction that vanished (say, signed elsewhere and dropped by the node).
    await h.db.gasWalletChainState.create({ data: { gasWalletId: partner.gasWalletId, chainId: CHAIN_ID, nextNonce: 1n } });
    const { batch } = await sendDeploy(partner);
    const [queued] = await transactionsOf(partner);
    expect(queued).toMatchObject({ nonce: 1n, status: "broadcast" });
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet, "latest")).toBe(0);

    const gapsBefore = await counted("sweep_nonce_gaps_total");
    const watcher = h.watcher();
    await watchUntil(watcher, "both nonces confirmed", async () => {
      const rows = await transactionsOf(partner);
      return rows.length === 2 && rows.every((r) => r.status === "confirmed") ? rows : undefined;
    });
    const [fill] = await transactionsOf(partner);
    const decoded = Transaction.from(fill!.rawTx);
    expect(decoded).toMatchObject({ nonce: 0, to: partner.gasWallet, value: 0n, data: "0x", gasLimit: 21_000n });
    const fillBatch = await h.db.batch.findUniqueOrThrow({ where: { id: fill!.batchId! } });
    expect(fillBatch).toMatchObject({ purpose: "gap_fill", status: "confirmed", gasWalletId: partner.gasWalletId });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "confirmed" });
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet, "latest")).toBe(2);
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toContainEqual({ chainId: CHAIN_ID, transactionId: fill!.id });
    expect(await counted("sweep_nonce_gaps_total")).toBe(gapsBefore + 1);
  });

  it("fails the batch with nonce_conflict when another transaction took its nonce", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [ours] = await transactionsOf(partner);
    // Someone else with the key: ours leaves the pool, theirs takes nonce 0.
    await h.chain.provider.send("anvil_dropTransaction", [ours!.hash]);
    const theirs = await partner.signer.connect(h.chain.provider).sendTransaction({ to: partner.gasWallet, value: 1n, nonce: 0 });
    await mine();
    expect((await h.chain.provider.getTransactionReceipt(theirs.hash))?.status).toBe(1);

    // Given up once three rounds at heads 12 blocks apart agree (a missing receipt may be a lagging backend's).
    const abandonedBefore = await counted("sweep_nonces_abandoned_total", { reason: "nonce_conflict" });
    const watcher = h.watcher();
    for (const blocks of [0, 6, 5]) {
      await mineBlocks(blocks);
      await watcher.runOnce();
    }
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: ours!.id } })).toMatchObject({ status: "broadcast" });
    await mineBlocks(1);
    await watcher.runOnce();
    expect(await counted("sweep_nonces_abandoned_total", { reason: "nonce_conflict" })).toBe(abandonedBefore + 1);
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: ours!.id } })).toMatchObject({ status: "dropped" });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "failed", reason: "nonce_conflict" });
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId: batch.id, chainId: CHAIN_ID, reason: "nonce_conflict" });
    expect(await transactionsOf(partner)).toHaveLength(1);
  });

  it("gives up a blocking transaction the node keeps refusing and fills its nonce", async () => {
    await automine(false);
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [refused] = await transactionsOf(partner);
    // The node loses it, and the gas wallet can no longer pay for it (but can for a plain transfer).
    await h.chain.provider.send("anvil_dropTransaction", [refused!.hash]);
    await h.chain.setBalance(partner.gasWallet, 21_000n * 50_000_000_000n);

    const abandonedBefore = await counted("sweep_nonces_abandoned_total", { reason: "insufficient_gas_balance" });
    const watcher = h.watcher({ dropAfterMs: 0 });
    await watcher.runOnce();
    expect(await counted("sweep_nonces_abandoned_total", { reason: "insufficient_gas_balance" })).toBe(abandonedBefore + 1);
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: refused!.id } })).toMatchObject({ status: "dropped" });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "failed", reason: "insufficient_gas_balance" });
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId: batch.id, chainId: CHAIN_ID, reason: "insufficient_gas_balance" });

    await mine();
    const fill = await watchUntil(watcher, "the filler confirmed", async () => {
      const rows = await transactionsOf(partner);
      return rows.find((r) => r.status === "confirmed");
    });
    expect(fill).toMatchObject({ nonce: 0n, replacement: 1 });
    expect(toBigInt(fill.maxFeePerGas) * 8n).toBeGreaterThanOrEqual(toBigInt(refused!.maxFeePerGas) * 9n);
    expect(Transaction.from(fill.rawTx)).toMatchObject({ to: partner.gasWallet, value: 0n });
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(1);
  });

  it("never gives up a mined nonce because a lagging backend has no receipt for it yet", async () => {
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [mined] = await transactionsOf(partner);
    expect((await h.chain.provider.getTransactionReceipt(mined!.hash))?.status).toBe(1);
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(1);

    // The nonce counts and the head come from a fresh backend (past nonce 0), the receipts from one behind, over
    // rounds at later heads spanning fewer blocks than the rule asks.
    const behind = new LaggingReceipts(h.client.chain);
    const watcher = h.watcher({ client: behind });
    const abandonedBefore = await counted("sweep_nonces_abandoned_total", { reason: "nonce_conflict" });
    for (const blocks of [0, 1, 5, 5]) {
      await mineBlocks(blocks);
      await watcher.runOnce();
    }
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: mined!.id } })).toMatchObject({ status: "broadcast" });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "sent" });
    expect(await counted("sweep_nonces_abandoned_total", { reason: "nonce_conflict" })).toBe(abandonedBefore);

    // The backend catches up: the transaction is settled as mined, once.
    behind.lagging = false;
    await watchUntil(watcher, "the transaction confirmed", async () => ((await h.db.chainTransaction.findUniqueOrThrow({ where: { id: mined!.id } })).status === "confirmed" ? true : undefined));
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "confirmed" });
    expect(await transactionsOf(partner)).toHaveLength(1);
  });

  it("restores a mined transaction given up because its receipt was withheld past the rule: confirmed, its batch confirmed, tx.outcome once", async () => {
    const partner = await partnerWithGasWallet(h);
    const { batch } = await sendDeploy(partner);
    const [mined] = await transactionsOf(partner);
    expect((await h.chain.provider.getTransactionReceipt(mined!.hash))?.status).toBe(1);

    // No backend answers its receipt for rounds spanning 12 blocks: given up, wrongly.
    const withheld = new LaggingReceipts(h.client.chain);
    const watcher = h.watcher({ client: withheld });
    for (const blocks of [0, 6, 6]) {
      await mineBlocks(blocks);
      await watcher.runOnce();
    }
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: mined!.id } })).toMatchObject({ status: "dropped" });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "failed", reason: "nonce_conflict" });
    const restoredBefore = await counted("sweep_nonces_restored_total");

    // The receipt appears: restored from it, once, however many rounds and watchers see it.
    withheld.lagging = false;
    await watcher.runOnce();
    await watcher.runOnce();
    await h.watcher().runOnce();
    const receipt = (await h.chain.provider.getTransactionReceipt(mined!.hash))!;
    expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: mined!.id } })).toMatchObject({
      status: "confirmed",
      blockNumber: BigInt(receipt.blockNumber),
      blockHash: receipt.blockHash,
      gasUsed: receipt.gasUsed,
      succeeded: true,
    });
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "confirmed", reason: null });
    expect((await outboxOf(h, "tx.outcome")).filter((m) => (m.payload as { transactionId: string }).transactionId === mined!.id)).toHaveLength(1);
    expect(await counted("sweep_nonces_restored_total")).toBe(restoredBefore + 1);
  });

  it("restores a given-up revocation batch: the revocations its failure queued, rejected or failed back in it with what the chain says of each, the final states they left counted as corrected", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await activeHotWallet(h, partner);
    const deposits = Array.from({ length: 5 }, () => Wallet.createRandom(h.chain.provider));
    for (const deposit of deposits) await delegateOnChain(h, deposit, hotWallet.delegate);
    const revocations = await Promise.all(deposits.map(async (d) => ({ account: d.address, authorization: await revocationAuthorization(h, d) })));
    const { batchId, revocationIds } = await openRevocationBatch(h, partner, revocations);
    // The last deposit address sends a transaction of its own before the batch goes: its authorization's nonce is stale, the chain skips it.
    await h.chain.setBalance(deposits[4]!.address, parseEther("1"));
    await (await deposits[4]!.sendTransaction({ to: Wallet.createRandom().address, value: 1n })).wait();
    await h.sender.send(batchId);
    const [mined] = await h.db.chainTransaction.findMany({ where: { batchId } });
    expect((await h.chain.provider.getTransactionReceipt(mined!.hash))?.status).toBe(1);

    // No backend answers its receipt for rounds spanning 12 blocks: given up, wrongly.
    const withheld = new LaggingReceipts(h.client.chain);
    const watcher = h.watcher({ client: withheld });
    for (const blocks of [0, 6, 6]) {
      await mineBlocks(blocks);
      await watcher.runOnce();
    }
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({ status: "failed", reason: "nonce_conflict" });
    // What the ledger's batch.failed and the batcher after it leave: [0] queued again, [1] then rejected by the batcher's check
    // (its delegation is gone), [2] and [4] failed (attempts ran out); [3] still processing (the ledger has not settled the failure yet).
    const [queued, rejected, failed, processing, stale] = revocationIds as [string, string, string, string, string];
    const metrics = new PendingMetrics();
    await h.db.$transaction(async (tx) => {
      const scope = { partnerId: partner.partnerId, chainId: CHAIN_ID, batchId };
      const settle = (id: string, status: "queued" | "failed") => ({ id, status, reason: "nonce_conflict", nextAttemptAt: status === "queued" ? new Date() : null, onChain: null, done: null });
      await settleWork(tx, h.names, metrics, "revocation", scope, [settle(queued, "queued"), settle(rejected, "queued"), settle(failed, "failed"), settle(stale, "failed")]);
      await rejectWork(tx, h.names, metrics, "revocation", { partnerId: partner.partnerId, chainId: CHAIN_ID, by: "batcher" }, [{ id: rejected, reason: "not_delegated" }]);
    });
    metrics.commit();
    const correctedBefore = {
      rejected: await counted("sweep_revocations_final_corrected_total", { status: "rejected", reason: "not_delegated" }),
      failed: await counted("sweep_revocations_final_corrected_total", { status: "failed", reason: "nonce_conflict" }),
      all: await counted("sweep_revocations_final_corrected_total"),
    };

    // The receipt appears: each revocation back in the batch, its item's outcome from its account's code at the receipt's block, once.
    withheld.lagging = false;
    await watcher.runOnce();
    await h.watcher().runOnce();
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({ status: "confirmed", reason: null });
    const back = await h.db.revocation.findMany({ where: { id: { in: revocationIds } } });
    expect(revocationIds.map((id) => back.find((r) => r.id === id))).toEqual(revocationIds.map(() => expect.objectContaining({ status: "processing", batchId, reason: null, nextAttemptAt: null })));
    const items = await h.db.batchItem.findMany({ where: { batchId }, orderBy: { position: "asc" } });
    expect(items.map((i) => [i.revocationId, i.outcome])).toEqual([
      [queued, "revoked"],
      [rejected, "revoked"],
      [failed, "revoked"],
      [processing, "revoked"],
      [stale, "not_applied"],
    ]);
    expect((await outboxOf(h, "tx.outcome")).filter((m) => (m.payload as { transactionId: string }).transactionId === mined!.id)).toHaveLength(1);
    // Counters never go down: the two final states left (rejected, failed twice) are counted as corrected under their labels; the queued one was not final.
    expect(await counted("sweep_revocations_final_corrected_total", { status: "rejected", reason: "not_delegated" })).toBe(correctedBefore.rejected + 1);
    expect(await counted("sweep_revocations_final_corrected_total", { status: "failed", reason: "nonce_conflict" })).toBe(correctedBefore.failed + 2);
    expect(await counted("sweep_revocations_final_corrected_total")).toBe(correctedBefore.all + 3);
  });
});
