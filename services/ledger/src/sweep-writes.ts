import { Prisma, toDecimal, type Tx } from "@sweep/db";
import { recordEvent } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { bookSweepFees } from "./ledger-entries";
import { settlementEvent, type SweepSettlement } from "./outcomes";

export interface BatchScope {
  partnerId: string;
  chainId: number;
  hotWalletId: string;
  batchId: string;
}

function sweepUpdate(settlement: SweepSettlement): Prisma.SweepUncheckedUpdateManyInput {
  switch (settlement.outcome) {
    case "swept": {
      const { onChain, fee } = settlement;
      return {
        status: "swept",
        reason: null,
        nextAttemptAt: null,
        sweptAmount: toDecimal(settlement.sweptAmount),
        txHash: onChain.txHash,
        kind: onChain.kind,
        gas: onChain.gas,
        gasCost: toDecimal(onChain.gasCost),
        fee: toDecimal(fee.fee),
        classicGas: fee.classicGas,
        rateBps: fee.rateBps,
      };
    }
    case "failed": {
      const { onChain } = settlement;
      return { status: "failed", reason: settlement.reason, nextAttemptAt: null, txHash: onChain.txHash, kind: onChain.kind, gas: onChain.gas, gasCost: toDecimal(onChain.gasCost) };
    }
    case "attempt_failed": {
      const { next } = settlement;
      // Back in the queue the sweep belongs to no batch; failed, it keeps the batch it failed in.
      return next.status === "queued" ? { status: "queued", reason: next.reason, nextAttemptAt: next.nextAttemptAt, batchId: null } : { status: "failed", reason: next.reason, nextAttemptAt: null };
    }
  }
}

/**
 * Applies the settlements of one batch's open sweeps. Each update is guarded by the sweep still
 * being processing in this batch, so only the first delivery of an outcome changes a sweep, books
 * its fee and records its event. When any sweep changed, the batcher is woken for the hot wallet:
 * what waited while the batch was in flight can go now. Returns how many sweeps changed.
 */
export async function applySweepSettlements(tx: Tx, names: QueueNames, scope: BatchScope, settlements: readonly SweepSettlement[]): Promise<number> {
  const fees: Parameters<typeof bookSweepFees>[1] = [];
  let changed = 0;
  for (const settlement of settlements) {
    const { count } = await tx.sweep.updateMany({ where: { id: settlement.sweepId, batchId: scope.batchId, status: "processing" }, data: sweepUpdate(settlement) });
    if (count === 0) continue;
    changed += 1;
    if (settlement.outcome === "swept") fees.push({ partnerId: scope.partnerId, chainId: scope.chainId, sweepId: settlement.sweepId, txHash: settlement.onChain.txHash, fee: settlement.fee.fee });
    const event = settlementEvent(settlement);
    if (event) await recordEvent(tx, names, { partnerId: scope.partnerId, type: event, subjectId: settlement.sweepId });
  }
  await bookSweepFees(tx, fees);
  if (changed > 0) await tx.outboxMessage.create({ data: outboxDraft("hot_wallet.wake", { hotWalletId: scope.hotWalletId, chainId: scope.chainId }, names) });
  return changed;
}
