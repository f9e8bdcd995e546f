import { DEFAULT_TX_FEE_CAP, effectiveFeeCeiling, l1FeeReserve, type FeeCeiling } from "@sweep/fees";
import type { ChainClient } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import { partnerMaxFeePerGas, type Db } from "@sweep/db";
import { retryAfter, type QueueNames, type RetryLater } from "@sweep/messaging";
import { AttemptFailure, failureReason } from "./attempt-failure";
import { stagesOf } from "../batch-purposes";
import type { Attempt, BatchToSend, LeftOut, StoredTransaction } from "../batch-types";
import { commitAttempt, loadOpenBatch } from "./batch-store";
import { broadcastStoredAnswer } from "../broadcast";
import { initialFees } from "../fees";
import { TRANSACTION_GAS_CAP } from "./gas-limit";
import type { GasWalletSigners } from "../gas-wallet-signers";
import { OPEN_BATCH_HOLD_RETRY_MS, newTransactionVerdict } from "./new-transaction-hold";
import { signTransaction, widestUnsignedSize } from "../signing";
import { capAfterRefusal, commitResend, fitCap, isSplittable, overheadGas, reservedLeaving, splitItemsOf, withoutItems } from "./split-sending";

const NO_TOKENS: ReadonlySet<string> = new Set();

/** A batch without items the base fee keeps above its fee ceiling: nothing signed, it stays open. */
interface HeldOpen {
  type: "held";
}

export interface BatchSenderOptions {
  db: Db;
  names: QueueNames;
  client: ChainClient;
  signers: GasWalletSigners;
  /** headroom on the gas estimate, basis points */
  gasLimitMarginBps: number;
  /** where withdrawals of this chain go (`TREASURY_ADDRESS_<chain_id>`); null fails them (internal) */
  treasury: string | null;
  /** the chain's delegate factory, which deploys hot wallets' delegates */
  factory: string;
  /** lower-case addresses of the chain's tokens marked FEE_ON_TRANSFER_ (default none) */
  feeOnTransferTokens?: ReadonlySet<string>;
  /** the chain's fee ceilings; a partner's own lower max fee applies to its batches */
  feeCeiling: FeeCeiling;
  /** `TX_FEE_CAP_<chain_id>`: no transaction may cost more at its gas limit and max fee (default one coin) */
  txFeeCap?: bigint;
  logger: Logger;
  /** called after an attempt wrote outbox messages, so the relay sends them at once */
  outboxWritten?: () => void;
  /** called once a transaction was stored and broadcast, so the chain's watcher watches it at once */
  transactionSent?: () => void;
}

/**
 * Sends one open batch as one transaction of its gas wallet: build it as its purpose says
 * (batch-purposes.ts: simulate a sweep batch and drop the items that would fail, estimate), price
 * it, check the balance, then sign and store before broadcasting. Watching the transaction
 * afterwards is the watcher's work. A batch the base fee keeps above its fee ceiling at signing
 * is not signed (new-transaction-hold.ts): its sweeps or revocations go back to the queue, a batch
 * without items stays open and its message is delivered again later (the RetryLater returned).
 */
export class BatchSender {
  constructor(private readonly options: BatchSenderOptions) {}

  async send(batchId: string): Promise<void | RetryLater> {
    const { db, names, client } = this.options;
    const startedAt = Date.now();
    const loaded = await loadOpenBatch(db, batchId, client.chainId);
    if ("skip" in loaded) {
      // A batch already sent is being watched (from its stored transaction); a settled one needs nothing.
      this.options.logger.info("batch needs no sending", { batchId, chainId: client.chainId, why: loaded.skip });
      return;
    }
    const batch = loaded.batch;
    const logger = this.options.logger.child({ batchId, chainId: batch.chainId, partnerId: batch.partnerId, gasWallet: batch.gasWallet.address, purpose: batch.purpose });
    const loadedAt = Date.now();
    const attempt = await this.attempt(batch, logger, { cap: this.options.txFeeCap ?? DEFAULT_TX_FEE_CAP, excluded: new Set(), holdForGasPrice: true });
    if (attempt.type === "held") return retryAfter(OPEN_BATCH_HOLD_RETRY_MS);
    const preparedAt = Date.now();
    const stored = await commitAttempt(db, names, batch, attempt);
    this.options.outboxWritten?.();
    if (attempt.dropped.length > 0) logger.info("items that would fail were left out", { sweepIds: attempt.dropped });
    if (attempt.type === "failed") logger.warn("batch failed before sending", { reason: attempt.reason });
    if (attempt.type === "empty" && !attempt.leftOut?.some((l) => l.why === "gas_price")) logger.info("batch settled without a transaction");
    if (!stored) return;
    const txLogger = logger.child({ transactionId: stored.id, hash: stored.hash, nonce: stored.nonce.toString() });
    // Where a send's time goes: reading the batch, the node's work (simulation, estimate, fees), signing and storing.
    txLogger.info("transaction signed and stored", { ...stagesOf(batch).carriedIds(batch, attempt.dropped), ms: { load: loadedAt - startedAt, prepare: preparedAt - loadedAt, store: Date.now() - preparedAt } });
    await this.broadcastSplitting(batch, stored, attempt, txLogger);
    this.options.transactionSent?.();
  }

  /**
   * Broadcasts a transaction just stored. When the node refuses it for its fee cap or a reserved
   * authority, it was never taken: a smaller one takes its nonce at once, without the items that
   * made it refused (back to the queue, not as an attempt), and so on while items remain; every
   * round leaves at least one item out, so it ends.
   */
  private async broadcastSplitting(batch: BatchToSend, first: StoredTransaction, firstAttempt: Attempt, logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    let stored = first;
    let cap = this.options.txFeeCap ?? DEFAULT_TX_FEE_CAP;
    // What the stored transaction carries: the batch without the items its attempt rejected or sent back to the queue.
    const carried = (batch: BatchToSend, attempt: Attempt) => withoutItems(batch, new Set([...attempt.dropped, ...(attempt.leftOut ?? []).flatMap((l) => l.ids)]));
    let sending = carried(batch, firstAttempt);
    for (;;) {
      const { verdict, message } = await broadcastStoredAnswer(db, client, stored, logger);
      if ((verdict !== "fee_cap_exceeded" && verdict !== "authority_reserved") || !isSplittable(sending)) return;
      const leftOut: LeftOut[] = [];
      const excluded = new Set<string>();
      if (verdict === "fee_cap_exceeded") {
        const refused = { rawTx: stored.rawTx, items: splitItemsOf(sending).length, overheadGas: overheadGas(sending, this.options.gasLimitMarginBps, TRANSACTION_GAS_CAP) };
        cap = capAfterRefusal(cap, refused, message);
      } else {
        const reserved = await reservedLeaving(client, sending).catch(() => null);
        if (!reserved) {
          logger.warn("could not tell which authority the node holds reserved; the watcher sends the transaction again");
          return;
        }
        leftOut.push({ ids: [...reserved], why: "authority_reserved" });
        reserved.forEach((id) => excluded.add(id));
      }
      const attempt = await this.attempt(sending, logger, { cap, excluded });
      attempt.leftOut = [...leftOut, ...(attempt.leftOut ?? [])];
      const next = await commitResend(db, names, sending, stored, attempt, await client.freshHead());
      this.options.outboxWritten?.();
      logger.warn("the node refused the transaction; sending a smaller one at its nonce", { verdict, message, leftOut: attempt.leftOut, dropped: attempt.dropped, cap: cap.toString(), resent: next?.hash ?? null, attempt: attempt.type });
      if (!next) return;
      sending = carried(sending, attempt);
      stored = next;
      logger = logger.child({ transactionId: next.id, hash: next.hash });
    }
  }

  /**
   * One attempt at the batch without `excluded`. While its transaction would cost more than `cap`
   * at its gas limit and max fee, the items past what fits are left out (back to the queue) and
   * the rest planned again; a single item over the cap fails it (gas_limit_exceeded). With
   * `holdForGasPrice` (a new transaction, not one taking a refused one's nonce), the hold rule is
   * applied to the fee market read: held items all go back to the queue (waiting_for_gas_price),
   * a batch without items is held open.
   */
  private async attempt(whole: BatchToSend, logger: Logger, split: { cap: bigint; excluded: ReadonlySet<string>; holdForGasPrice: true }): Promise<Attempt | HeldOpen>;
  private async attempt(whole: BatchToSend, logger: Logger, split: { cap: bigint; excluded: ReadonlySet<string> }): Promise<Attempt>;
  private async attempt(whole: BatchToSend, logger: Logger, split: { cap: bigint; excluded: ReadonlySet<string>; holdForGasPrice?: boolean }): Promise<Attempt | HeldOpen> {
    const dropped: string[] = [];
    const leftOut: LeftOut[] = [];
    const excluded = new Set(split.excluded);
    const from = whole.gasWallet.address;
    const stages = stagesOf(whole);
    let batch = withoutItems(whole, excluded);
    try {
      // Every read of the attempt at one block, never older than a head this process has seen: a node behind a
      // load balancer that lags would show no delegation or balance the suite already saw mined.
      const client = this.options.client.atBlock(await this.options.client.freshHead());
      // The reads that do not depend on the content go out together with the simulation.
      const reads = {
        market: client.feeMarket(),
        balance: client.balance(from),
        chainPending: this.options.client.nonceAt(from, "pending"),
        partnerMaxFee: partnerMaxFeePerGas(this.options.db, { partnerId: batch.partnerId }, batch.chainId),
      };
      // Awaited below or given up with the attempt: never an unhandled rejection.
      Object.values(reads).forEach((read) => read.catch(() => undefined));
      const signer = this.options.signers.signerFor(batch.gasWallet);
      const { gasLimitMarginBps, treasury, factory, feeOnTransferTokens = NO_TOKENS } = this.options;
      const ceiling = effectiveFeeCeiling(this.options.feeCeiling, await reads.partnerMaxFee);
      let planned, gasLimit, fees;
      for (;;) {
        planned = await stages.content({ client, from, market: reads.market, gasLimitMarginBps, treasury, factory, feeOnTransferTokens, logger }, batch);
        dropped.push(...planned.dropped);
        if (!planned.content) return { type: "empty", dropped, leftOut };
        gasLimit = await planned.gasLimit();
        // Never above the ceiling: the batcher held the batch while the base fee kept it above; a spike since the claim
        // is held below (the hold at signing), before anything is signed.
        fees = initialFees(await reads.market, ceiling);
        const fit = fitCap(batch, new Set(planned.dropped), { gasLimit, maxFeePerGas: fees.maxFeePerGas, cap: split.cap, marginBps: gasLimitMarginBps, blockGasLimit: (await reads.market).blockGasLimit });
        if (fit === "fits") break;
        if (fit === "too_big") throw new AttemptFailure("gas_limit_exceeded", `gas limit ${gasLimit} × max fee ${fees.maxFeePerGas} is over the fee cap ${split.cap} with a single item`);
        leftOut.push({ ids: [...fit], why: "fee_cap" });
        for (const id of [...planned.dropped, ...fit]) excluded.add(id);
        batch = withoutItems(whole, excluded);
        logger.info("over the fee cap: items left for a later batch", { leftOut: [...fit], gasLimit: gasLimit.toString(), maxFeePerGas: fees.maxFeePerGas.toString(), cap: split.cap.toString() });
      }
      const market = await reads.market;
      const verdict = split.holdForGasPrice ? newTransactionVerdict(batch.purpose, ceiling, market) : "send";
      if (verdict !== "send") {
        const fields = { baseFee: market.baseFee.toString(), tip: market.tip.toString(), maxFeePerGas: ceiling.maxFeePerGas.toString() };
        if (verdict === "wait_open") {
          logger.info("the base fee keeps the batch above its fee ceiling; nothing signed, the batch stays open and is tried again", fields);
          return { type: "held" };
        }
        // Every item the simulation did not reject, those over the fee cap too: they all wait for the same fall.
        const held = splitItemsOf(withoutItems(whole, new Set([...split.excluded, ...dropped]))).map((i) => i.id);
        logger.info("the base fee keeps the batch above its fee ceiling; nothing signed, its items wait queued", { ...fields, held });
        return { type: "empty", dropped, leftOut: [{ ids: held, why: "gas_price" }] };
      }
      const content = planned.content;
      const balance = await reads.balance;
      // An OP-stack chain also charges for the transaction's L1 data: kept back as a reserve, as the max fee keeps back for gas.
      const l1Reserve = client.chain.chargesL1DataFee ? l1FeeReserve(widestUnsignedSize({ ...content, chainId: BigInt(batch.chainId), gasLimit }, fees), await client.l1BlockFees()) : 0n;
      const { value, kept } = stages.spending(batch, balance, gasLimit, fees.maxFeePerGas, l1Reserve);
      if (value === null) return { type: "empty", dropped, leftOut };
      const needed = value + gasLimit * fees.maxFeePerGas + l1Reserve;
      const available = balance - kept - batch.inFlightCost;
      if (available < needed) {
        throw new AttemptFailure("insufficient_gas_balance", `available ${available} wei (after ${kept} wei of fees due kept and transactions in flight), the transaction may cost ${needed}`);
      }
      const chainPending = await reads.chainPending;
      return {
        type: "send",
        dropped,
        leftOut,
        chainPending,
        sign: (nonce) => signTransaction(signer, client.chain.provider, { ...content, chainId: BigInt(batch.chainId), nonce, value, gasLimit }, fees),
      };
    } catch (err) {
      const reason = failureReason(err);
      logger.warn("attempt failed", { reason, error: err instanceof Error ? err.message : String(err) });
      return { type: "failed", reason, dropped, leftOut };
    }
  }
}
