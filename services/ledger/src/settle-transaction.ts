import { partnerTariff } from "@sweep/fees";
import type { Logger } from "@sweep/common";
import { toBigInt, toBigIntOrNull, type Batch, type BatchItem, type HotWallet, type Tx } from "@sweep/db";
import { retryAfter, type MessagePayload, type RetryLater } from "@sweep/messaging";
import { settleHotWallet, states } from "@sweep/lifecycle";
import { PendingMetrics } from "@sweep/metrics";
import { SETTLEMENT_TRANSACTION, type LedgerDeps } from "./ledger-deps";
import { bookTransactionGas } from "./ledger-entries";
import { deploymentOutcome, settleSweepBatch, type Receipt } from "./outcomes";
import { bookBehindReconciliation } from "./restored-gas";
import { settleRevocationBatch } from "./revocation-outcomes";
import { applyRevocationSettlements } from "./revocation-writes";
import { revocationIdsByStatus, sweepIdsByStatus } from "./settlement-log";
import { applySweepSettlements } from "./sweep-writes";
import { bookDrain, bookWithdrawal } from "./withdrawal-entry";

/** A node that does not answer the code check is asked again after this pause, without using up deliveries. */
const CODE_CHECK_RETRY_MS = 5_000;

export interface Settled {
  partnerId: string;
  chainId: number;
  gasWalletId: string;
  receipt: Receipt;
  /** the block it was mined in */
  blockNumber: number;
  /** the signed transaction as stored */
  rawTx: string;
  batch: Batch & { items: BatchItem[]; hotWallet: HotWallet | null };
}

/** A confirmed transaction with its batch (none for a gap filler without one), as its purpose's settlement needs it. */
export async function loadTransaction(deps: LedgerDeps, payload: MessagePayload<"tx.outcome">) {
  const transaction = await deps.db.chainTransaction.findUnique({
    where: { id: payload.transactionId },
    include: { gasWallet: { select: { partnerId: true } }, batch: { include: { items: true, hotWallet: true } } },
  });
  if (!transaction || transaction.chainId !== payload.chainId) throw new Error(`transaction ${payload.transactionId} of chain ${payload.chainId} is unknown`);
  const { status, gasUsed, effectiveGasPrice, succeeded, blockNumber } = transaction;
  if (status !== states.transaction.confirmed || gasUsed === null || effectiveGasPrice === null || succeeded === null || blockNumber === null) {
    throw new Error(`transaction ${transaction.hash} is ${status}, not confirmed with a receipt`);
  }
  // A row confirmed before the L1 fees were read has none: it was confirmed on a chain without one.
  const receipt: Receipt = {
    hash: transaction.hash,
    succeeded,
    gasUsed,
    effectiveGasPrice: toBigInt(effectiveGasPrice),
    l1Fee: toBigIntOrNull(transaction.l1Fee) ?? 0n,
    minimumL1Fee: toBigIntOrNull(transaction.minimumL1Fee) ?? 0n,
  };
  return {
    partnerId: transaction.gasWallet.partnerId,
    gasWalletId: transaction.gasWalletId,
    chainId: transaction.chainId,
    receipt,
    blockNumber: Number(blockNumber),
    rawTx: transaction.rawTx,
    batch: transaction.batch,
  };
}

function gasEntry({ partnerId, chainId, receipt }: Pick<Settled, "partnerId" | "chainId" | "receipt">) {
  return { partnerId, chainId, hash: receipt.hash, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.effectiveGasPrice, l1Fee: receipt.l1Fee };
}

/** A transaction that carried nothing but its gas: a gap filler, with or without its batch. */
export async function bookGasOnly(deps: LedgerDeps, settled: Omit<Settled, "batch">): Promise<void> {
  await deps.db.$transaction((tx) => bookTransactionGas(tx, gasEntry(settled)));
}

/**
 * A withdrawal that went through is one withdrawal entry (its value and its gas), with no gas entry
 * beside it; a drain, its gas and the value it sent away. A failed one sent nothing: only its gas,
 * as a plain gas entry, and the fees stay due for the next withdrawal.
 */
export async function settleWithdrawal(deps: LedgerDeps, settled: Settled, logger: Logger): Promise<void> {
  const { partnerId, chainId, gasWalletId, receipt, blockNumber, rawTx, batch } = settled;
  // Booked with a top-up reversing the one that explained its spend when its block was reconciled while it was given up (a restored one).
  const book = async (entries: (tx: Tx) => Promise<void>) => {
    const restored = await deps.db.$transaction(async (tx) => {
      if (await bookBehindReconciliation(tx, { partnerId, chainId, gasWalletId, hash: receipt.hash, blockNumber }, entries)) return true;
      await entries(tx);
      return false;
    });
    if (restored) logger.warn("a restored withdrawal booked with a top-up reversing the one that explained it while it was given up", { hash: receipt.hash, blockNumber });
  };
  if (!receipt.succeeded) {
    await book((tx) => bookTransactionGas(tx, gasEntry(settled)));
    logger.warn("withdrawal reverted: only its gas is booked, the fees stay due", { batchId: batch.id, hash: receipt.hash });
    return;
  }
  const drainTo = batch.drainTo;
  if (drainTo !== null) {
    await book((tx) => bookDrain(tx, { partnerId, chainId, rawTx, receipt }, drainTo));
    logger.info("gas wallet drained", { batchId: batch.id, hash: receipt.hash, to: drainTo });
    return;
  }
  await book((tx) => bookWithdrawal(tx, { partnerId, chainId, rawTx, receipt }));
  logger.info("withdrawal booked", { batchId: batch.id, hash: receipt.hash });
}

export async function settleSweepTransaction(deps: LedgerDeps, settled: Settled, logger: Logger): Promise<void> {
  const { partnerId, chainId, receipt, batch } = settled;
  const configured = deps.tariffs.get(chainId);
  if (!configured) throw new Error(`no tariff for chain ${chainId}`);
  if (!batch.hotWalletId) throw new Error(`sweep batch ${batch.id} has no hot wallet`);
  const scope = { partnerId, chainId, hotWalletId: batch.hotWalletId, batchId: batch.id };
  const items = batch.items.map((item) => ({ ...item, amount: toBigIntOrNull(item.amount) }));

  const metrics = new PendingMetrics();
  const changed = await deps.db.$transaction(async (tx) => {
    await bookTransactionGas(tx, gasEntry(settled));
    const open = await tx.sweep.findMany({ where: { batchId: batch.id, status: states.sweep.processing }, select: { id: true, attempts: true, token: true, tokenAddress: true } });
    if (open.length === 0) return [];
    const agreement = await tx.agreement.findUnique({ where: { partnerId_chainId: { partnerId, chainId } } });
    const settlements = settleSweepBatch({
      receipt,
      items,
      openSweeps: open.map((s) => ({ id: s.id, attempts: s.attempts, token: s.token, native: s.tokenAddress === null })),
      tariff: partnerTariff(configured, agreement),
      maxAttempts: deps.maxAttempts,
      now: deps.now(),
    });
    for (const s of settlements) {
      if (s.outcome === "attempt_failed" && s.next.reason === "internal") logger.error("a processing sweep was not carried by its batch's transaction", { sweepId: s.sweepId, batchId: batch.id, hash: receipt.hash });
    }
    return applySweepSettlements(tx, deps.names, metrics, scope, settlements);
  }, SETTLEMENT_TRANSACTION);

  logger.info("sweep batch settled", { batchId: batch.id, partnerId, hash: receipt.hash, succeeded: receipt.succeeded, sweepsChanged: changed.length, sweepIdsByStatus: sweepIdsByStatus(changed) });
  if (changed.length > 0) deps.outboxWritten();
  metrics.commit();
}

export async function settleRevocationTransaction(deps: LedgerDeps, settled: Settled, logger: Logger): Promise<void> {
  const { partnerId, chainId, receipt, batch } = settled;
  const metrics = new PendingMetrics();
  const changed = await deps.db.$transaction(async (tx) => {
    await bookTransactionGas(tx, gasEntry(settled));
    const open = await tx.revocation.findMany({ where: { batchId: batch.id, status: states.revocation.processing }, select: { id: true, attempts: true } });
    if (open.length === 0) return [];
    const settlements = settleRevocationBatch({ receipt, items: batch.items, openRevocations: open, maxAttempts: deps.maxAttempts, now: deps.now() });
    for (const s of settlements) {
      if (s.outcome === "attempt_failed" && s.next.reason === "internal") logger.error("a processing revocation got no outcome from its batch's transaction", { revocationId: s.revocationId, batchId: batch.id, hash: receipt.hash });
    }
    return applyRevocationSettlements(tx, deps.names, metrics, { partnerId, chainId, batchId: batch.id }, settlements);
  }, SETTLEMENT_TRANSACTION);

  logger.info("revocation batch settled", { batchId: batch.id, partnerId, hash: receipt.hash, succeeded: receipt.succeeded, revocationsChanged: changed.length, revocationIdsByStatus: revocationIdsByStatus(changed) });
  if (changed.length > 0) deps.outboxWritten();
  metrics.commit();
}

export async function settleDeployment(deps: LedgerDeps, settled: Settled, logger: Logger): Promise<void | RetryLater> {
  const { partnerId, chainId, receipt, blockNumber, batch } = settled;
  const hotWallet = batch.hotWallet;
  if (!hotWallet) throw new Error(`deployment batch ${batch.id} has no hot wallet`);
  // An active hot wallet (a redelivery) needs no code check: only the gas entry is made sure of. A failed one is checked: its
  // deployment's nonce may have been given up although its transaction was mined (restored), and the code says.
  if (hotWallet.status === states.hotWallet.active) {
    await deps.db.$transaction((tx) => bookTransactionGas(tx, gasEntry(settled)));
    return;
  }
  let hasCode: boolean;
  try {
    hasCode = await deps.hasCode(chainId, hotWallet.delegate, blockNumber);
  } catch (err) {
    logger.warn("code check of a delegate failed; retrying later", { chainId, delegate: hotWallet.delegate, error: String(err) });
    return retryAfter(CODE_CHECK_RETRY_MS);
  }
  const outcome = deploymentOutcome(hasCode, receipt.succeeded);
  const target = { hotWalletId: hotWallet.id, partnerId, batchId: batch.id, batchCreatedAt: batch.createdAt };
  const changed = await deps.db.$transaction(async (tx) => {
    await bookTransactionGas(tx, gasEntry(settled));
    return settleHotWallet(tx, deps.names, target, outcome.status === "active" ? { status: "active", txHash: receipt.hash } : outcome);
  });
  logger.info("delegate deployment settled", { hotWalletId: hotWallet.id, hash: receipt.hash, outcome: outcome.status, changed });
  if (changed) deps.outboxWritten();
}
