import type { Logger } from "@sweep/common";
import type { BatchPurpose } from "@sweep/db";
import type { MessagePayload, RetryLater } from "@sweep/messaging";
import type { LedgerDeps } from "./ledger-deps";
import { bookGasBehindReconciliation } from "./restored-gas";
import { failedDeployment, failedRevocationBatch, failedSweepBatch, failedWithdrawal, loadFailedBatch, type FailedBatch } from "./settle-failed-batch";
import { bookGasOnly, loadTransaction, settleDeployment, settleRevocationTransaction, settleSweepTransaction, settleWithdrawal, type Settled } from "./settle-transaction";

interface PurposeSettlement {
  /** tx.outcome: books the transaction's gas and settles what it carried */
  confirmed: (deps: LedgerDeps, settled: Settled, logger: Logger) => Promise<void | RetryLater>;
  /** batch.failed: no transaction went through, nothing is booked */
  failed: (deps: LedgerDeps, failed: FailedBatch, logger: Logger) => Promise<void>;
}

/**
 * What the ledger does with the batches of each purpose: the one place it tells them apart, so a
 * new purpose does not compile until the ledger settles it.
 */
const settlements: Record<BatchPurpose, PurposeSettlement> = {
  sweep: { confirmed: settleSweepTransaction, failed: failedSweepBatch },
  revocation: { confirmed: settleRevocationTransaction, failed: failedRevocationBatch },
  deploy_delegate: { confirmed: settleDeployment, failed: failedDeployment },
  withdrawal: { confirmed: settleWithdrawal, failed: failedWithdrawal },
  // A gap filler carries nothing but its gas, and is sent as it is made: it never fails before a transaction.
  gap_fill: { confirmed: (deps, settled) => bookGasOnly(deps, settled), failed: async () => {} },
};

/**
 * tx.outcome: the transaction's gas and what it carried, in one database transaction per outcome
 * (a withdrawal's one entry holds its gas); the guards inside make a redelivery change nothing.
 */
export async function settleTransaction(deps: LedgerDeps, payload: MessagePayload<"tx.outcome">, logger: Logger): Promise<void | RetryLater> {
  const { batch, ...settled } = await loadTransaction(deps, payload);
  // A withdrawal's or drain's entries hold its gas (settleWithdrawal books them behind the reconciliation); any other transaction's gas is a gas entry, booked here first when its block was reconciled before (a restored one).
  if (batch?.purpose !== "withdrawal") {
    const { partnerId, chainId, gasWalletId, receipt, blockNumber } = settled;
    const entry = { partnerId, chainId, gasWalletId, hash: receipt.hash, blockNumber, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.effectiveGasPrice, l1Fee: receipt.l1Fee };
    if (await deps.db.$transaction((tx) => bookGasBehindReconciliation(tx, entry))) {
      logger.warn("a restored transaction's gas booked with a top-up reversing the one that explained it while it was given up", { hash: receipt.hash, blockNumber });
    }
  }
  // A gap filler stored without a batch carries nothing but its gas.
  if (!batch) return bookGasOnly(deps, settled);
  return settlements[batch.purpose].confirmed(deps, { ...settled, batch }, logger);
}

/** batch.failed: the open items of the batch settled as its purpose says. */
export async function settleFailedBatch(deps: LedgerDeps, payload: MessagePayload<"batch.failed">, logger: Logger): Promise<void> {
  const failed = await loadFailedBatch(deps, payload);
  return settlements[failed.batch.purpose].failed(deps, failed, logger);
}
