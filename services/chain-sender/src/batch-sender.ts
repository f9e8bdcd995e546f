import { NATIVE_TRANSFER_GAS, estimateFailureReason, isUnsupportedMethod, nodeMessage, type CallRequest, type ChainClient } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import { BATCH_GAS_TOO_LOW_SELECTOR, contractAt, decodeSweepOutcomes, encodeSweepBatch, type SweepOutcome } from "@sweep/contracts";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { commitAttempt, loadOpenBatch, type Attempt, type BatchToSend, type SweepBatchToSend } from "./batch-store";
import { broadcastStored } from "./broadcast";
import { carriedIds } from "./carried-ids";
import { initialFees, type FeeMarket } from "./fees";
import { TRANSACTION_GAS_CAP, gasLimitFromEstimate, gasLimitFromSimulation } from "./gas-limit";
import type { GasWalletSigners } from "./gas-wallet-signers";
import { AttemptFailure, failureReason } from "./attempt-failure";
import { revocationAuthorizations } from "./revocation-plan";
import { signTransaction, type TransactionContent } from "./signing";
import { authorizationList, planItems, splitBySimulation } from "./sweep-plan";
import { drainValue, withdrawalValue } from "./withdrawal-plan";

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
  logger: Logger;
  /** called after an attempt wrote outbox messages, so the relay sends them at once */
  outboxWritten?: () => void;
}

type Content = Pick<TransactionContent, "to" | "data" | "authorizationList">;

/**
 * Sends one open batch as one transaction of its gas wallet: simulate (sweeps), drop the items that
 * would fail, estimate, price, check the balance, then sign and store before broadcasting. A
 * withdrawal is a plain transfer of the fees due to the treasury, less its own gas; a drain, of all
 * the balance but the fees due to the address it names. Watching the
 * transaction afterwards is the watcher's work.
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
    txLogger.info("transaction signed and stored", { ...carriedIds(batch, attempt.dropped), ms: { load: loadedAt - startedAt, prepare: preparedAt - loadedAt, store: Date.now() - preparedAt } });
    await broadcastStored(db, client, stored, txLogger);
  }

  private async attempt(batch: BatchToSend, logger: Logger): Promise<Attempt> {
    let dropped: string[] = [];
    const from = batch.gasWallet.address;
    try {
      // Every read of the attempt at one block, never older than a head this process has seen: a node behind a
      // load balancer that lags would show no delegation or balance the suite already saw mined.
      const client = this.options.client.atBlock(await this.options.client.freshHead());
      // The reads that do not depend on the content go out together with the simulation.
      const reads = { market: client.feeMarket(), balance: client.balance(from), chainPending: this.options.client.nonceAt(from, "pending") };
      // Awaited below or given up with the attempt: never an unhandled rejection.
      Object.values(reads).forEach((read) => read.catch(() => undefined));
      const signer = this.options.signers.signerFor(batch.gasWallet);
      let content: Content;
      let gasLimit: bigint;
      if (batch.purpose === "sweep") {
        const plan = await this.sweepContent(client, batch, logger);
        dropped = plan.dropped;
        if (!plan.content) return { type: "empty", dropped };
        content = plan.content;
        gasLimit = await this.sweepGasLimit(client, from, content, plan.gasUsed, await reads.market, logger);
      } else if (batch.purpose === "revocation") {
        if (batch.items.length === 0) return { type: "empty", dropped };
        // An unreadable authorization fails the attempt (internal): the revocations go back to queued and the batcher's check rejects that one invalid_authorization.
        const authorizations = revocationAuthorizations(batch.items);
        if (!authorizations) throw new AttemptFailure("internal", "a revocation's stored authorization cannot be read");
        // The gas wallet sends the authorizations to itself; no eth_simulateV1, as nothing would report per-item outcomes.
        content = { to: from, data: "0x", authorizationList: authorizations };
        gasLimit = await this.estimatedGasLimit(client, from, content, await reads.market);
      } else if (batch.purpose === "withdrawal" && batch.drainTo !== null) {
        content = { to: batch.drainTo, data: "0x", authorizationList: [] };
        // The recipient may be a contract (a smart account): its receive is estimated, not assumed 21,000.
        gasLimit = await this.estimatedGasLimit(client, from, content, await reads.market);
      } else if (batch.purpose === "withdrawal") {
        const treasury = this.options.treasury;
        if (!treasury) {
          logger.error(`TREASURY_ADDRESS_${batch.chainId} is not set: the fees due cannot be withdrawn on this chain`);
          throw new AttemptFailure("internal", `no treasury address for chain ${batch.chainId}`);
        }
        content = { to: treasury, data: "0x", authorizationList: [] };
        gasLimit = NATIVE_TRANSFER_GAS;
      } else {
        const factory = contractAt("DelegateFactory", this.options.factory);
        content = { to: this.options.factory, data: factory.interface.encodeFunctionData("deploy", [batch.hotWallet, batch.gasWallet.address]), authorizationList: [] };
        gasLimit = await this.estimatedGasLimit(client, from, content, await reads.market);
      }
      const fees = initialFees(await reads.market);
      const balance = await reads.balance;
      const value = this.value(batch, balance, gasLimit, fees.maxFeePerGas);
      if (value === null) return { type: "empty", dropped };
      // A withdrawal spends the fees due themselves (value + gas limit × max fee = fees due), so they are not kept back from it as well.
      const kept = batch.purpose === "withdrawal" && batch.drainTo === null ? 0n : batch.feesDue;
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

  /** The value the transaction sends: the fees due (a withdrawal) or the rest of the balance (a drain); null when nothing is left. */
  private value(batch: BatchToSend, balance: bigint, gasLimit: bigint, maxFeePerGas: bigint): bigint | null {
    if (batch.purpose !== "withdrawal") return 0n;
    if (batch.drainTo === null) return withdrawalValue(batch.feesDue, maxFeePerGas);
    return drainValue({ balance, feesDue: batch.feesDue, inFlightCost: batch.inFlightCost }, gasLimit, maxFeePerGas);
  }

  /**
   * The batch's call with the items that would fail left out (simulated with eth_simulateV1), or
   * no content when none is left, with the gas the simulation of that content used. On a node
   * without eth_simulateV1 every item goes (gasUsed null): the delegate reports a failing item
   * without reverting the batch, so it then ends failed instead of rejected.
   */
  private async sweepContent(client: ChainClient, batch: SweepBatchToSend, logger: Logger): Promise<{ content: Content | null; gasUsed: bigint | null; dropped: string[] }> {
    const from = batch.gasWallet.address;
    const planned = planItems(batch.items);
    if (planned.length === 0) return { content: null, gasUsed: null, dropped: [] };
    const all = { to: batch.delegate, data: encodeSweepBatch(planned.map((p) => p.item)), authorizationList: authorizationList(planned, planned) };
    let simulated;
    try {
      simulated = await this.simulate(client, batch, { from, ...all });
    } catch (err) {
      if (!isUnsupportedMethod(err)) throw err;
      logger.warn("the node has no eth_simulateV1; sending every item unsimulated");
      return { content: all, gasUsed: null, dropped: [] };
    }
    const split = splitBySimulation(planned, simulated.outcomes);
    if (!split) throw new AttemptFailure("internal", "the simulated outcomes do not match the batch items");
    const dropped = split.dropped.map((p) => p.sweepId);
    if (split.kept.length === 0) return { content: null, gasUsed: null, dropped };
    if (dropped.length === 0) return { content: all, gasUsed: simulated.gasUsed, dropped };
    const kept = { to: batch.delegate, data: encodeSweepBatch(split.kept.map((p) => p.item)), authorizationList: authorizationList(planned, split.kept) };
    // Without the dropped items the batch uses less gas; the kept ones are simulated again for it.
    const keptGas = await unlessUnsupported(() => this.simulate(client, batch, { from, ...kept }), logger);
    return { content: kept, gasUsed: keptGas?.gasUsed ?? null, dropped };
  }

  /** eth_simulateV1 of a sweep batch: its per-item outcomes and gas; a reverted batch fails the attempt. */
  private async simulate(client: ChainClient, batch: SweepBatchToSend, call: CallRequest & { gas?: bigint }): Promise<{ outcomes: SweepOutcome[]; gasUsed: bigint }> {
    const simulated = await client.simulate(call);
    if (!simulated.succeeded) {
      const tooBig = simulated.returnData.toLowerCase().startsWith(BATCH_GAS_TOO_LOW_SELECTOR);
      throw new AttemptFailure(tooBig ? "gas_limit_exceeded" : "internal", `the simulated batch reverted with ${simulated.returnData.slice(0, 10)}`);
    }
    return { outcomes: decodeSweepOutcomes(simulated.logs, batch.delegate), gasUsed: simulated.gasUsed };
  }

  /**
   * A sweep batch's gas limit from its simulated gas, checked by one more simulation at that limit
   * (every item must still sweep); eth_estimateGas only when that check fails or nothing was simulated.
   */
  private async sweepGasLimit(client: ChainClient, from: string, content: Content, gasUsed: bigint | null, market: FeeMarket & { blockGasLimit: bigint }, logger: Logger): Promise<bigint> {
    if (gasUsed !== null) {
      const gasLimit = gasLimitFromSimulation(gasUsed, this.options.gasLimitMarginBps, market.blockGasLimit);
      const check = await unlessUnsupported(() => client.simulate({ from, ...content, gas: gasLimit }), logger);
      const outcomes = check?.succeeded ? decodeSweepOutcomes(check.logs, content.to) : [];
      if (outcomes.length > 0 && outcomes.every((o) => o.swept)) return gasLimit;
      if (check) logger.warn("the gas limit from the simulation fell short; asking eth_estimateGas", { gasLimit: gasLimit.toString(), gasUsed: gasUsed.toString() });
    }
    return this.estimatedGasLimit(client, from, content, market);
  }

  /** eth_estimateGas plus headroom; a refusal, or more than the block or the cap holds, fails the attempt. */
  private async estimatedGasLimit(client: ChainClient, from: string, content: Content, market: FeeMarket & { blockGasLimit: bigint }): Promise<bigint> {
    let estimate: bigint;
    try {
      estimate = await client.estimateGas({ from, ...content });
    } catch (err) {
      throw new AttemptFailure(estimateFailureReason(err), `gas estimate refused: ${nodeMessage(err)}`);
    }
    const ceiling = market.blockGasLimit < TRANSACTION_GAS_CAP ? market.blockGasLimit : TRANSACTION_GAS_CAP;
    if (estimate > ceiling) throw new AttemptFailure("gas_limit_exceeded", `needs ${estimate} gas, a transaction may use ${ceiling}`);
    return gasLimitFromEstimate(estimate, this.options.gasLimitMarginBps, market.blockGasLimit);
  }
}

/**
 * A simulation after the first, or null where it meets a node without eth_simulateV1: behind a
 * load-balanced endpoint the backends differ, and the one that answered the first may not answer
 * the next (the gas then comes from eth_estimateGas).
 */
async function unlessUnsupported<T>(simulate: () => Promise<T>, logger: Logger): Promise<T | null> {
  try {
    return await simulate();
  } catch (err) {
    if (!isUnsupportedMethod(err)) throw err;
    logger.warn("a node behind the endpoint has no eth_simulateV1; the gas limit comes from eth_estimateGas");
    return null;
  }
}
