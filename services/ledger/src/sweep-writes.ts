import type { Tx } from "@sweep/db";
import { fromStates, recordEvents, wakeRevocationRounds, wakeSweepsOfAccounts, type EventDraft } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { bookSweepFees } from "./ledger-entries";
import { settlementEvent, type SweepSettlement } from "./outcomes";

export interface BatchScope {
  partnerId: string;
  chainId: number;
  hotWalletId: string;
  batchId: string;
}

/**
 * A sweep's new column values, all as text for the update's arrays (the SQL casts them back), so
 * money and gas stay exact. Which columns an outcome sets is decided in the SQL by `outcome`.
 */
interface SweepRow {
  id: string;
  outcome: SweepSettlement["outcome"];
  status: "swept" | "failed" | "queued";
  reason: string | null;
  nextAttemptAt: string | null;
  txHash: string | null;
  kind: string | null;
  gas: string | null;
  gasCost: string | null;
  sweptAmount: string | null;
  fee: string | null;
  classicGas: string | null;
  rateBps: string | null;
}

function sweepRow(settlement: SweepSettlement): SweepRow {
  const none = { txHash: null, kind: null, gas: null, gasCost: null, sweptAmount: null, fee: null, classicGas: null, rateBps: null };
  const { sweepId: id, outcome } = settlement;
  switch (outcome) {
    case "swept": {
      const { onChain, fee } = settlement;
      return {
        id,
        outcome,
        status: "swept",
        reason: null,
        nextAttemptAt: null,
        txHash: onChain.txHash,
        kind: onChain.kind,
        gas: onChain.gas.toString(),
        gasCost: onChain.gasCost.toString(),
        sweptAmount: settlement.sweptAmount.toString(),
        fee: fee.fee.toString(),
        classicGas: fee.classicGas?.toString() ?? null,
        rateBps: fee.rateBps.toString(),
      };
    }
    case "failed": {
      const { onChain } = settlement;
      return { ...none, id, outcome, status: "failed", reason: settlement.reason, nextAttemptAt: null, txHash: onChain.txHash, kind: onChain.kind, gas: onChain.gas.toString(), gasCost: onChain.gasCost.toString() };
    }
    case "attempt_failed": {
      const { next } = settlement;
      return { ...none, id, outcome, status: next.status, reason: next.reason, nextAttemptAt: next.status === "queued" ? next.nextAttemptAt.toISOString() : null };
    }
  }
}

/** A sweep a settlement changed: its account and the status it now has. */
interface ChangedSweep {
  id: string;
  account: string;
  status: SweepRow["status"];
}

/**
 * Updates the sweeps in one statement, each only while still processing in the batch, and returns
 * those that changed. An attempt failure leaves the on-chain columns as they are, a failed item
 * the fee columns; back in the queue a sweep belongs to no batch, failed it keeps the batch it
 * failed in.
 */
async function updateSweeps(tx: Tx, batchId: string, rows: readonly SweepRow[]): Promise<ChangedSweep[]> {
  const column = <K extends keyof SweepRow>(key: K) => rows.map((row) => row[key]);
  return tx.$queryRaw<ChangedSweep[]>`
    UPDATE sweeps AS s
       SET status = v.status::"WorkStatus",
           reason = v.reason,
           next_attempt_at = v.next_attempt_at::timestamptz,
           batch_id = CASE WHEN v.status = 'queued' THEN NULL ELSE s.batch_id END,
           tx_hash = CASE WHEN v.outcome = 'attempt_failed' THEN s.tx_hash ELSE v.tx_hash END,
           kind = CASE WHEN v.outcome = 'attempt_failed' THEN s.kind ELSE v.kind::"SweepKind" END,
           gas = CASE WHEN v.outcome = 'attempt_failed' THEN s.gas ELSE v.gas::bigint END,
           gas_cost = CASE WHEN v.outcome = 'attempt_failed' THEN s.gas_cost ELSE v.gas_cost::numeric END,
           swept_amount = CASE WHEN v.outcome = 'swept' THEN v.swept_amount::numeric ELSE s.swept_amount END,
           fee = CASE WHEN v.outcome = 'swept' THEN v.fee::numeric ELSE s.fee END,
           classic_gas = CASE WHEN v.outcome = 'swept' THEN v.classic_gas::bigint ELSE s.classic_gas END,
           rate_bps = CASE WHEN v.outcome = 'swept' THEN v.rate_bps::integer ELSE s.rate_bps END,
           -- raw SQL gets no @updatedAt from Prisma
           updated_at = now()
      FROM unnest(${column("id")}::uuid[], ${column("outcome")}::text[], ${column("status")}::text[], ${column("reason")}::text[],
                  ${column("nextAttemptAt")}::text[], ${column("txHash")}::text[], ${column("kind")}::text[], ${column("gas")}::text[],
                  ${column("gasCost")}::text[], ${column("sweptAmount")}::text[], ${column("fee")}::text[], ${column("classicGas")}::text[],
                  ${column("rateBps")}::text[])
           AS v(id, outcome, status, reason, next_attempt_at, tx_hash, kind, gas, gas_cost, swept_amount, fee, classic_gas, rate_bps)
     WHERE s.id = v.id AND s.batch_id = ${batchId}::uuid AND s.status = ANY(${fromStates("sweep", "swept")}::"WorkStatus"[])
 RETURNING s.id::text AS id, s.account, s.status::text AS status`;
}

/**
 * Applies the settlements of one batch's open sweeps in a fixed number of statements, whatever the
 * batch's size. Only sweeps still processing in this batch change, so only the first delivery of an
 * outcome changes a sweep, books its fee and records its event. When any sweep changed, the batcher
 * is woken for the hot wallet: what waited while the batch was in flight can go now; for the other
 * hot wallets of the chain with queued sweeps of these addresses, which waited too; and for the
 * revocation rounds of the addresses whose sweep ended (swept or failed), as a revocation waits for
 * the sweeps of its address requested before it (work-wakes.ts in @sweep/lifecycle). Returns the settlements
 * that changed a sweep.
 */
export async function applySweepSettlements(tx: Tx, names: QueueNames, scope: BatchScope, settlements: readonly SweepSettlement[]): Promise<SweepSettlement[]> {
  if (settlements.length === 0) return [];
  const rows = await updateSweeps(tx, scope.batchId, settlements.map(sweepRow));
  if (rows.length === 0) return [];
  const changedIds = new Set(rows.map((row) => row.id));
  const changed = settlements.filter((settlement) => changedIds.has(settlement.sweepId));

  await bookSweepFees(
    tx,
    changed.flatMap((s) => (s.outcome === "swept" ? [{ partnerId: scope.partnerId, chainId: scope.chainId, sweepId: s.sweepId, txHash: s.onChain.txHash, fee: s.fee.fee }] : [])),
  );
  await recordEvents(
    tx,
    names,
    changed.flatMap((s): EventDraft[] => {
      const type = settlementEvent(s);
      return type ? [{ partnerId: scope.partnerId, type, subjectId: s.sweepId }] : [];
    }),
  );
  await tx.outboxMessage.create({ data: outboxDraft("hot_wallet.wake", { hotWalletId: scope.hotWalletId, chainId: scope.chainId }, names) });
  await wakeSweepsOfAccounts(tx, names, { chainId: scope.chainId, accounts: [...new Set(rows.map((row) => row.account))], except: scope.hotWalletId });
  const ended = rows.filter((row) => row.status !== "queued").map((row) => row.account);
  await wakeRevocationRounds(tx, names, { chainId: scope.chainId, accounts: [...new Set(ended)] });
  return changed;
}
