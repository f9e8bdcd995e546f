import type { Logger } from "@sweep/common";
import type { Batch } from "@sweep/db";
import type { MessagePayload } from "@sweep/messaging";
import { settleHotWallet, states } from "@sweep/lifecycle";
import { PendingMetrics } from "@sweep/metrics";
import { SETTLEMENT_TRANSACTION, type LedgerDeps } from "./ledger-deps";
import { settleFailedAttempt } from "./outcomes";
import { settleFailedRevocationAttempt } from "./revocation-outcomes";
import { applyRevocationSettlements } from "./revocation-writes";
import { revocationIdsByStatus, sweepIdsByStatus } from "./settlement-log";
import { applySweepSettlements } from "./sweep-writes";

/**
 * batch.failed, by purpose (batch-purposes.ts chooses): no transaction went through, so nothing is
 * booked. Each is guarded like every settlement: a redelivery changes nothing.
 */

/** A batch no transaction of which went through, with its partner and the reason. */
export interface FailedBatch {
  batch: Batch;
  partnerId: string;
  chainId: number;
  reason: MessagePayload<"batch.failed">["reason"];
}

export async function loadFailedBatch(deps: LedgerDeps, payload: MessagePayload<"batch.failed">): Promise<FailedBatch> {
  const batch = await deps.db.batch.findUnique({ where: { id: payload.batchId } });
  if (!batch || batch.chainId !== payload.chainId) throw new Error(`batch ${payload.batchId} of chain ${payload.chainId} is unknown`);
  const { partnerId } = await deps.db.gasWallet.findUniqueOrThrow({ where: { id: batch.gasWalletId }, select: { partnerId: true } });
  return { batch, partnerId, chainId: payload.chainId, reason: payload.reason };
}

/** A failed withdrawal leaves nothing to settle: the fees stay due and the next run creates a new one. */
export async function failedWithdrawal(_deps: LedgerDeps, { batch, reason }: FailedBatch, logger: Logger): Promise<void> {
  logger.info("failed withdrawal: nothing to settle, the fees stay due", { batchId: batch.id, reason });
}

/** The batch's open sweeps go back to queued with the reason, or fail when their attempts ran out. */
export async function failedSweepBatch(deps: LedgerDeps, { batch, partnerId, chainId, reason }: FailedBatch, logger: Logger): Promise<void> {
  const hotWalletId = batch.hotWalletId;
  if (!hotWalletId) throw new Error(`sweep batch ${batch.id} has no hot wallet`);
  const metrics = new PendingMetrics();
  const changed = await deps.db.$transaction(async (tx) => {
    const open = await tx.sweep.findMany({ where: { batchId: batch.id, status: states.sweep.processing }, select: { id: true, attempts: true } });
    const settlements = settleFailedAttempt(open, reason, deps.maxAttempts, deps.now());
    return applySweepSettlements(tx, deps.names, metrics, { partnerId, chainId, hotWalletId, batchId: batch.id }, settlements);
  }, SETTLEMENT_TRANSACTION);
  logger.info("failed sweep batch settled", { batchId: batch.id, partnerId, reason, sweepsChanged: changed.length, sweepIdsByStatus: sweepIdsByStatus(changed) });
  if (changed.length > 0) deps.outboxWritten();
  metrics.commit();
}

/** The batch's open revocations go back to queued with the reason, or fail when their attempts ran out. */
export async function failedRevocationBatch(deps: LedgerDeps, { batch, partnerId, chainId, reason }: FailedBatch, logger: Logger): Promise<void> {
  const metrics = new PendingMetrics();
  const changed = await deps.db.$transaction(async (tx) => {
    const open = await tx.revocation.findMany({ where: { batchId: batch.id, status: states.revocation.processing }, select: { id: true, attempts: true } });
    const settlements = settleFailedRevocationAttempt(open, reason, deps.maxAttempts, deps.now());
    return applyRevocationSettlements(tx, deps.names, metrics, { partnerId, chainId, batchId: batch.id }, settlements);
  }, SETTLEMENT_TRANSACTION);
  logger.info("failed revocation batch settled", { batchId: batch.id, partnerId, reason, revocationsChanged: changed.length, revocationIdsByStatus: revocationIdsByStatus(changed) });
  if (changed.length > 0) deps.outboxWritten();
  metrics.commit();
}

/** The deployment's hot wallet fails with the reason as its error. */
export async function failedDeployment(deps: LedgerDeps, { batch, partnerId, reason }: FailedBatch, logger: Logger): Promise<void> {
  const hotWalletId = batch.hotWalletId;
  if (!hotWalletId) throw new Error(`deployment batch ${batch.id} has no hot wallet`);
  const target = { hotWalletId, partnerId, batchId: batch.id, batchCreatedAt: batch.createdAt };
  const changed = await deps.db.$transaction((tx) => settleHotWallet(tx, deps.names, target, { status: "failed", error: reason }));
  logger.info("failed delegate deployment settled", { hotWalletId, reason, changed });
  if (changed) deps.outboxWritten();
}
