import { effectiveFeeCeiling, type ChainClient, type FeeCeiling } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import { partnerMaxFeePerGas, type Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { AttemptFailure, failureReason } from "./attempt-failure";
import { stagesOf } from "./batch-purposes";
import { commitAttempt, loadOpenBatch, type Attempt, type BatchToSend } from "./batch-store";
import { broadcastStored } from "./broadcast";
import { initialFees } from "./fees";
import type { GasWalletSigners } from "./gas-wallet-signers";
import { signTransaction } from "./signing";

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
  /** the chain's fee ceilings; a partner's own lower max fee applies to its batches */
  feeCeiling: FeeCeiling;
  logger: Logger;
  /** called after an attempt wrote outbox messages, so the relay sends them at once */
  outboxWritten?: () => void;
}

/**
 * Sends one open batch as one transaction of its gas wallet: build it as its purpose says
 * (batch-purposes.ts: simulate a sweep batch and drop the items that would fail, estimate), price
 * it, check the balance, then sign and store before broadcasting. Watching the transaction
 * afterwards is the watcher's work.
 */
export class BatchSender {
  constructor(private readonly options: BatchSenderOptions) {}

  async send(batchId: string): Promise<void> {
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
    const attempt = await this.attempt(batch, logger);
    const preparedAt = Date.now();
    const stored = await commitAttempt(db, names, batch, attempt);
    this.options.outboxWritten?.();
    if (attempt.dropped.length > 0) logger.info("items that would fail were left out", { sweepIds: attempt.dropped });
    if (attempt.type === "failed") logger.warn("batch failed before sending", { reason: attempt.reason });
    if (attempt.type === "empty") logger.info("batch settled without a transaction");
    if (!stored) return;
    const txLogger = logger.child({ transactionId: stored.id, hash: stored.hash, nonce: stored.nonce.toString() });
    // Where a send's time goes: reading the batch, the node's work (simulation, estimate, fees), signing and storing.
    txLogger.info("transaction signed and stored", { ...stagesOf(batch).carriedIds(batch, attempt.dropped), ms: { load: loadedAt - startedAt, prepare: preparedAt - loadedAt, store: Date.now() - preparedAt } });
    await broadcastStored(db, client, stored, txLogger);
  }

  private async attempt(batch: BatchToSend, logger: Logger): Promise<Attempt> {
    let dropped: string[] = [];
    const from = batch.gasWallet.address;
    const stages = stagesOf(batch);
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
      const { gasLimitMarginBps, treasury, factory } = this.options;
      const planned = await stages.content({ client, from, market: reads.market, gasLimitMarginBps, treasury, factory, logger }, batch);
      dropped = planned.dropped;
      const content = planned.content;
      if (!content) return { type: "empty", dropped };
      const gasLimit = await planned.gasLimit();
      // Never above the ceiling: the batcher held the batch while the base fee kept it above; a spike since the claim
      // leaves it at the ceiling, kept and sent again by the watcher until the base fee falls.
      const fees = initialFees(await reads.market, effectiveFeeCeiling(this.options.feeCeiling, await reads.partnerMaxFee));
      const balance = await reads.balance;
      const { value, kept } = stages.spending(batch, balance, gasLimit, fees.maxFeePerGas);
      if (value === null) return { type: "empty", dropped };
      const needed = value + gasLimit * fees.maxFeePerGas;
      const available = balance - kept - batch.inFlightCost;
      if (available < needed) {
        throw new AttemptFailure("insufficient_gas_balance", `available ${available} wei (after ${kept} wei of fees due kept and transactions in flight), the transaction may cost ${needed}`);
      }
      const chainPending = await reads.chainPending;
      return {
        type: "send",
        dropped,
        chainPending,
        sign: (nonce) => signTransaction(signer, client.chain.provider, { ...content, chainId: BigInt(batch.chainId), nonce, value, gasLimit }, fees),
      };
    } catch (err) {
      const reason = failureReason(err);
      logger.warn("attempt failed", { reason, error: err instanceof Error ? err.message : String(err) });
      return { type: "failed", reason, dropped };
    }
  }
}
