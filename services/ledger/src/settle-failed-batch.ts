import type { Logger } from "@sweep/common";
import type { MessagePayload } from "@sweep/messaging";
import { settleHotWallet } from "./hot-wallet-writes";
import { SETTLEMENT_TRANSACTION, type LedgerDeps } from "./ledger-deps";
import { settleFailedAttempt } from "./outcomes";
import { settleFailedRevocationAttempt } from "./revocation-outcomes";
import { applyRevocationSettlements } from "./revocation-writes";
import { revocationIdsByStatus, sweepIdsByStatus } from "./settlement-log";
import { countRevocationSettlements, countSweepSettlements } from "./settlement-metrics";
import { applySweepSettlements } from "./sweep-writes";

/**
 * batch.failed: no transaction went through, so nothing is booked. A sweep or revocation batch's
 * open items go back to queued with the reason (or fail when attempts ran out); a deployment's hot
 * wallet fails with the reason as its error; a withdrawal leaves nothing to settle (the fees stay due
 * and the next run creates a new one). Guarded like every settlement: a redelivery changes nothing.
 */
export async function settleFailedBatch(deps: LedgerDeps, payload: MessagePayload<"batch.failed">, logger: Logger): Promise<void> {
  const batch = await deps.db.batch.findUnique({ where: { id: payload.batchId } });
  if (!batch || batch.chainId !== payload.chainId) throw new Error(`batch ${payload.batchId} of chain ${payload.chainId} is unknown`);
  const { partnerId } = await deps.db.gasWallet.findUniqueOrThrow({ where: { id: batch.gasWalletId }, select: { partnerId: true } });
  const { reason, chainId } = payload;

  switch (batch.purpose) {
    case "gap_fill":
      return;
    case "withdrawal":
      logger.info("failed withdrawal: nothing to settle, the fees stay due", { batchId: batch.id, reason });
      return;
    case "sweep": {
      const hotWalletId = batch.hotWalletId;
      if (!hotWalletId) throw new Error(`sweep batch ${batch.id} has no hot wallet`);
      const changed = await deps.db.$transaction(async (tx) => {
        const open = await tx.sweep.findMany({ where: { batchId: batch.id, status: "processing" }, select: { id: true, attempts: true } });
        const settlements = settleFailedAttempt(open, reason, deps.maxAttempts, deps.now());
        return applySweepSettlements(tx, deps.names, { partnerId, chainId, hotWalletId, batchId: batch.id }, settlements);
      }, SETTLEMENT_TRANSACTION);
      logger.info("failed sweep batch settled", { batchId: batch.id, partnerId, reason, sweepsChanged: changed.length, sweepIdsByStatus: sweepIdsByStatus(changed) });
      if (changed.length > 0) deps.outboxWritten();
      countSweepSettlements(chainId, changed);
      return;
    }
    case "revocation": {
      const changed = await deps.db.$transaction(async (tx) => {
        const open = await tx.revocation.findMany({ where: { batchId: batch.id, status: "processing" }, select: { id: true, attempts: true } });
        const settlements = settleFailedRevocationAttempt(open, reason, deps.maxAttempts, deps.now());
        return applyRevocationSettlements(tx, deps.names, { partnerId, chainId, batchId: batch.id }, settlements);
      }, SETTLEMENT_TRANSACTION);
      logger.info("failed revocation batch settled", { batchId: batch.id, partnerId, reason, revocationsChanged: changed.length, revocationIdsByStatus: revocationIdsByStatus(changed) });
      if (changed.length > 0) deps.outboxWritten();
      countRevocationSettlements(chainId, changed);
      return;
    }
    case "deploy_delegate": {
      const hotWalletId = batch.hotWalletId;
      if (!hotWalletId) throw new Error(`deployment batch ${batch.id} has no hot wallet`);
      const target = { hotWalletId, partnerId, batchId: batch.id, batchCreatedAt: batch.createdAt };
      const changed = await deps.db.$transaction((tx) => settleHotWallet(tx, deps.names, target, { status: "failed", error: reason }));
      logger.info("failed delegate deployment settled", { hotWalletId, reason, changed });
      if (changed) deps.outboxWritten();
      return;
    }
    default:
      throw new Error(`failures of ${batch.purpose} batches are not settled by this ledger yet`);
  }
}
