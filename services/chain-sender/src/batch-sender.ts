import { factoryAddress } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import { BATCH_GAS_TOO_LOW_SELECTOR, contractAt, decodeSweepOutcomes, encodeSweepBatch } from "@sweep/contracts";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { commitAttempt, loadOpenBatch, type Attempt, type BatchToSend, type SweepBatchToSend } from "./batch-store";
import { broadcastStored } from "./broadcast";
import type { ChainClient } from "./chain-client";
import { initialFees, type Fees } from "./fees";
import type { GasWalletSigners } from "./gas-wallet-signers";
import { AttemptFailure, estimateFailureReason, failureReason, isUnsupportedMethod, nodeMessage } from "./node-errors";
import { signTransaction, type TransactionContent } from "./signing";
import { authorizationList, planItems, splitBySimulation } from "./sweep-plan";

export interface BatchSenderOptions {
  db: Db;
  names: QueueNames;
  client: ChainClient;
  signers: GasWalletSigners;
  /** headroom on the gas estimate, basis points */
  gasLimitMarginBps: number;
  logger: Logger;
}

type Content = Pick<TransactionContent, "to" | "data" | "authorizationList">;

/**
 * Sends one open batch as one transaction of its gas wallet: simulate, drop the items that would
 * fail, estimate, price, check the balance, then sign and store before broadcasting. Watching the
 * transaction afterwards is the watcher's work.
 */
export class BatchSender {
  constructor(private readonly options: BatchSenderOptions) {}

  async send(batchId: string): Promise<void> {
    const { db, names, client } = this.options;
    const loaded = await loadOpenBatch(db, batchId, client.chainId);
    if ("skip" in loaded) {
      // A batch already sent is being watched (from its stored transaction); a settled one needs nothing.
      this.options.logger.info("batch needs no sending", { batchId, chainId: client.chainId, why: loaded.skip });
      return;
    }
    const batch = loaded.batch;
    const logger = this.options.logger.child({ batchId, chainId: batch.chainId, gasWallet: batch.gasWallet.address, purpose: batch.purpose });
    const attempt = await this.attempt(batch, logger);
    const stored = await commitAttempt(db, names, batch, attempt);
    if (attempt.dropped.length > 0) logger.info("items that would fail were left out", { sweepIds: attempt.dropped });
    if (attempt.type === "failed") logger.warn("batch failed before sending", { reason: attempt.reason });
    if (attempt.type === "empty") logger.info("batch settled without a transaction");
    if (!stored) return;
    const txLogger = logger.child({ transactionId: stored.id, hash: stored.hash, nonce: stored.nonce.toString() });
    txLogger.info("transaction signed and stored");
    await broadcastStored(db, client, stored, txLogger);
  }

  private async attempt(batch: BatchToSend, logger: Logger): Promise<Attempt> {
    let dropped: string[] = [];
    try {
      const signer = this.options.signers.signerFor(batch.gasWallet);
      let content: Content;
      if (batch.purpose === "sweep") {
        const plan = await this.sweepContent(batch, logger);
        dropped = plan.dropped;
        if (!plan.content) return { type: "empty", dropped };
        content = plan.content;
      } else {
        const factory = contractAt("DelegateFactory", factoryAddress(batch.chainId));
        content = { to: factoryAddress(batch.chainId), data: factory.interface.encodeFunctionData("deploy", [batch.hotWallet, batch.gasWallet.address]), authorizationList: [] };
      }
      const { gasLimit, fees } = await this.price(batch, content);
      const chainPending = await this.options.client.nonceAt(batch.gasWallet.address, "pending");
      const { client } = this.options;
      return {
        type: "send",
        dropped,
        chainPending,
        sign: (nonce) => signTransaction(signer, client.chain.provider, { ...content, chainId: BigInt(batch.chainId), nonce, value: 0n, gasLimit }, fees),
      };
    } catch (err) {
      const reason = failureReason(err);
      logger.warn("attempt failed", { reason, error: err instanceof Error ? err.message : String(err) });
      return { type: "failed", reason, dropped };
    }
  }

  /**
   * The batch's call with the items that would fail left out (simulated with eth_simulateV1), or
   * no content when none is left. On a node without eth_simulateV1 every item goes: the delegate
   * reports a failing item without reverting the batch, so it then ends failed instead of rejected.
   */
  private async sweepContent(batch: SweepBatchToSend, logger: Logger): Promise<{ content: Content | null; dropped: string[] }> {
    const planned = planItems(batch.items);
    if (planned.length === 0) return { content: null, dropped: [] };
    const all = { to: batch.delegate, data: encodeSweepBatch(planned.map((p) => p.item)), authorizationList: authorizationList(planned, planned) };
    let simulated;
    try {
      simulated = await this.options.client.simulate({ from: batch.gasWallet.address, ...all });
    } catch (err) {
      if (!isUnsupportedMethod(err)) throw err;
      logger.warn("the node has no eth_simulateV1; sending every item unsimulated");
      return { content: all, dropped: [] };
    }
    if (!simulated.succeeded) {
      const tooBig = simulated.returnData.toLowerCase().startsWith(BATCH_GAS_TOO_LOW_SELECTOR);
      throw new AttemptFailure(tooBig ? "gas_limit_exceeded" : "internal", `the simulated batch reverted with ${simulated.returnData.slice(0, 10)}`);
    }
    const split = splitBySimulation(planned, decodeSweepOutcomes(simulated.logs, batch.delegate));
    if (!split) throw new AttemptFailure("internal", "the simulated outcomes do not match the batch items");
    const dropped = split.dropped.map((p) => p.sweepId);
    if (split.kept.length === 0) return { content: null, dropped };
    return {
      content: { to: batch.delegate, data: encodeSweepBatch(split.kept.map((p) => p.item)), authorizationList: authorizationList(planned, split.kept) },
      dropped,
    };
  }

  /** Gas limit (estimate plus headroom, within the block) and fees; the available balance must cover the worst case. */
  private async price(batch: BatchToSend, content: Content): Promise<{ gasLimit: bigint; fees: Fees }> {
    const { client, gasLimitMarginBps } = this.options;
    const from = batch.gasWallet.address;
    const market = await client.feeMarket();
    let estimate: bigint;
    try {
      estimate = await client.estimateGas({ from, ...content });
    } catch (err) {
      throw new AttemptFailure(estimateFailureReason(err), `gas estimate refused: ${nodeMessage(err)}`);
    }
    if (estimate > market.blockGasLimit) throw new AttemptFailure("gas_limit_exceeded", `needs ${estimate} gas, the block holds ${market.blockGasLimit}`);
    const withMargin = (estimate * BigInt(10_000 + gasLimitMarginBps)) / 10_000n;
    const gasLimit = withMargin < market.blockGasLimit ? withMargin : market.blockGasLimit;
    const fees = initialFees(market);
    const balance = await client.balance(from);
    const needed = gasLimit * fees.maxFeePerGas;
    if (balance - batch.feesDue < needed) {
      throw new AttemptFailure("insufficient_gas_balance", `available ${balance - batch.feesDue} wei, the transaction may cost ${needed}`);
    }
    return { gasLimit, fees };
  }
}
