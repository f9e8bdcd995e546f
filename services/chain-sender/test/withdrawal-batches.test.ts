import { randomUUID } from "node:crypto";
import { NATIVE_TRANSFER_GAS } from "@sweep/fees";
import { createLogger } from "@sweep/common";
import { toBigInt, toDecimal } from "@sweep/db";
import { Transaction, parseEther } from "ethers";
import { BatchSender } from "../src/send/batch-sender";
import { CHAIN_ID, outboxOf, partnerWithGasWallet, startHarness, watchUntil, type FundedPartner, type Harness } from "./support";

describe("chain-sender: withdrawal batches on anvil", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  const batchOf = (batchId: string) => h.db.batch.findUniqueOrThrow({ where: { id: batchId } });

  /** Fees the ledger booked for the partner's sweeps on the chain (negative amounts, as the ledger writes them). */
  async function bookFees(partner: FundedPartner, ...fees: bigint[]) {
    for (const fee of fees) {
      await h.db.ledgerEntry.create({ data: { partnerId: partner.partnerId, chainId: CHAIN_ID, kind: "fee", amount: toDecimal(-fee), dedupeKey: `fee:${randomUUID()}` } });
    }
  }

  /** A withdrawal batch as the creator leaves it: open, no hot wallet, no items. */
  async function openWithdrawal(partner: FundedPartner) {
    const batch = await h.db.batch.create({ data: { chainId: CHAIN_ID, gasWalletId: partner.gasWalletId, purpose: "withdrawal" } });
    return batch.id;
  }

  it("sends the fees due less its estimated gas at the max fee to the treasury in one plain transfer; value and gas stay within the fees due", async () => {
    const partner = await partnerWithGasWallet(h);
    const due = parseEther("0.01");
    await bookFees(partner, parseEther("0.006"), parseEther("0.004"));
    const batchId = await openWithdrawal(partner);
    const treasuryBefore = await h.chain.provider.getBalance(h.treasury);

    await h.sender.send(batchId);
    expect((await batchOf(batchId)).status).toBe("sent");
    const [sent] = await h.db.chainTransaction.findMany({ where: { batchId } });
    const maxFeePerGas = toBigInt(sent!.maxFeePerGas);
    const decoded = Transaction.from(sent!.rawTx);
    // The node's estimate of a plain transfer (21,000 on anvil) and the sender's 20% margin: never an assumed 21,000 (Arbitrum counts L1 calldata in gas).
    const gasLimit = (NATIVE_TRANSFER_GAS * 12n) / 10n;
    expect(decoded).toMatchObject({ type: 2, from: partner.gasWallet, to: h.treasury, data: "0x", gasLimit, maxFeePerGas, value: due - gasLimit * maxFeePerGas });
    expect(decoded.authorizationList).toBeNull();
    expect(sent!.gasLimit).toBe(gasLimit);

    await watchUntil(h.watcher(), "the batch confirmed", async () => ((await batchOf(batchId)).status === "confirmed" ? true : undefined));
    const mined = await h.db.chainTransaction.findUniqueOrThrow({ where: { id: sent!.id } });
    expect(mined).toMatchObject({ status: "confirmed", succeeded: true, gasUsed: NATIVE_TRANSFER_GAS });
    expect((await h.chain.provider.getBalance(h.treasury)) - treasuryBefore).toBe(decoded.value);
    expect(decoded.value + mined.gasUsed! * toBigInt(mined.effectiveGasPrice!)).toBeLessThanOrEqual(due);
    expect((await outboxOf(h, "tx.outcome")).map((m) => m.payload)).toContainEqual({ chainId: CHAIN_ID, transactionId: sent!.id });
    // No hot wallet to wake, and no items whose outcomes to record.
    expect(await outboxOf(h, "hot_wallet.wake")).toHaveLength(0);
    expect(await h.db.batchItem.count({ where: { batchId } })).toBe(0);

    // A redelivered batch.ready for a confirmed batch changes nothing.
    await h.sender.send(batchId);
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(1);
  });

  it.each([
    ["no fees due", [] as bigint[]],
    ["fees due that would not even pay the withdrawal's gas", [1_000n]],
  ])("settles the batch without a transaction when there are %s", async (_name, fees) => {
    const partner = await partnerWithGasWallet(h);
    await bookFees(partner, ...fees);
    const batchId = await openWithdrawal(partner);

    await h.sender.send(batchId);
    expect(await batchOf(batchId)).toMatchObject({ status: "confirmed", reason: null });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).not.toContainEqual(expect.objectContaining({ batchId }));
  });

  it("sends when the balance holds exactly the fees due: they are not kept back from their own withdrawal; one wei less fails insufficient_gas_balance", async () => {
    const due = parseEther("0.01");
    const exact = await partnerWithGasWallet(h, due);
    await bookFees(exact, due);
    const sent = await openWithdrawal(exact);
    await h.sender.send(sent);
    expect((await batchOf(sent)).status).toBe("sent");
    expect(await h.db.chainTransaction.count({ where: { batchId: sent } })).toBe(1);

    const short = await partnerWithGasWallet(h, due - 1n);
    await bookFees(short, due);
    const failed = await openWithdrawal(short);
    await h.sender.send(failed);
    expect(await batchOf(failed)).toMatchObject({ status: "failed", reason: "insufficient_gas_balance" });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: short.gasWalletId } })).toBe(0);
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId: failed, chainId: CHAIN_ID, reason: "insufficient_gas_balance" });
  });

  it("fails the attempt (internal) when no treasury address is configured, sending nothing", async () => {
    const partner = await partnerWithGasWallet(h);
    await bookFees(partner, parseEther("0.01"));
    const batchId = await openWithdrawal(partner);
    // The missing configuration is logged as an error, on purpose here.
    const quiet = createLogger("chain-sender-test", "error");
    quiet.silent = true;
    const withoutTreasury = new BatchSender({ db: h.db, names: h.names, client: h.client, signers: h.signers, gasLimitMarginBps: 2_000, treasury: null, factory: h.factory, feeCeiling: h.feeCeiling, logger: quiet });

    await withoutTreasury.send(batchId);
    expect(await batchOf(batchId)).toMatchObject({ status: "failed", reason: "internal" });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);
    expect((await outboxOf(h, "batch.failed")).map((m) => m.payload)).toContainEqual({ batchId, chainId: CHAIN_ID, reason: "internal" });
  });
});
