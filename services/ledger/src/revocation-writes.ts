import type { Tx } from "@sweep/db";
import { fromStates, recordEvents, wakeRevocationRounds, wakeSweepsOfAccounts, type EventDraft } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { revocationSettlementEvent, type RevocationSettlement } from "./revocation-outcomes";

/** A revocation's new column values, all as text for the update's arrays (the SQL casts them back), so gas and wei stay exact. */
interface RevocationRow {
  id: string;
  outcome: RevocationSettlement["outcome"];
  status: "revoked" | "failed" | "queued";
  reason: string | null;
  nextAttemptAt: string | null;
  txHash: string | null;
  gas: string | null;
  gasCost: string | null;
}

function revocationRow(settlement: RevocationSettlement): RevocationRow {
  const { revocationId: id, outcome } = settlement;
  switch (outcome) {
    case "revoked":
    case "failed": {
      const { onChain } = settlement;
      const reason = outcome === "failed" ? settlement.reason : null;
      return { id, outcome, status: outcome, reason, nextAttemptAt: null, txHash: onChain.txHash, gas: onChain.gas.toString(), gasCost: onChain.gasCost.toString() };
    }
    case "attempt_failed": {
      const { next } = settlement;
      return { id, outcome, status: next.status, reason: next.reason, nextAttemptAt: next.status === "queued" ? next.nextAttemptAt.toISOString() : null, txHash: null, gas: null, gasCost: null };
    }
  }
}

/** A revocation a settlement changed: its account and the status it now has. */
interface ChangedRevocation {
  id: string;
  account: string;
  status: RevocationRow["status"];
}

/**
 * Updates the revocations in one statement, each only while still processing in the batch, and
 * returns those that changed. An attempt failure leaves the on-chain columns as they are; back in
 * the queue a revocation belongs to no batch, failed it keeps the batch it failed in.
 */
async function updateRevocations(tx: Tx, batchId: string, rows: readonly RevocationRow[]): Promise<ChangedRevocation[]> {
  const column = <K extends keyof RevocationRow>(key: K) => rows.map((row) => row[key]);
  return tx.$queryRaw<ChangedRevocation[]>`
    UPDATE revocations AS r
       SET status = v.status::"WorkStatus",
           reason = v.reason,
           next_attempt_at = v.next_attempt_at::timestamptz,
           batch_id = CASE WHEN v.status = 'queued' THEN NULL ELSE r.batch_id END,
           tx_hash = CASE WHEN v.outcome = 'attempt_failed' THEN r.tx_hash ELSE v.tx_hash END,
           gas = CASE WHEN v.outcome = 'attempt_failed' THEN r.gas ELSE v.gas::bigint END,
           gas_cost = CASE WHEN v.outcome = 'attempt_failed' THEN r.gas_cost ELSE v.gas_cost::numeric END,
           -- raw SQL gets no @updatedAt from Prisma
           updated_at = now()
      FROM unnest(${column("id")}::uuid[], ${column("outcome")}::text[], ${column("status")}::text[], ${column("reason")}::text[],
                  ${column("nextAttemptAt")}::text[], ${column("txHash")}::text[], ${column("gas")}::text[], ${column("gasCost")}::text[])
           AS v(id, outcome, status, reason, next_attempt_at, tx_hash, gas, gas_cost)
     WHERE r.id = v.id AND r.batch_id = ${batchId}::uuid AND r.status = ANY(${fromStates("revocation", "revoked")}::"WorkStatus"[])
 RETURNING r.id::text AS id, r.account, r.status::text AS status`;
}

/**
 * Applies the settlements of one batch's open revocations in a fixed number of statements, whatever
 * the batch's size. Only revocations still processing in this batch change, so only the first
 * delivery of an outcome changes a revocation and records its event. Revocations pay no fee. When
 * any changed, the batcher is woken for what waited for them (work-wakes.ts in @sweep/lifecycle): the sweeps of
 * the accounts whose revocation ended, and the revocation rounds of the partner and of the other
 * revocations of these accounts. Returns the settlements that changed a revocation.
 */
export async function applyRevocationSettlements(
  tx: Tx,
  names: QueueNames,
  scope: { partnerId: string; chainId: number; batchId: string },
  settlements: readonly RevocationSettlement[],
): Promise<RevocationSettlement[]> {
  if (settlements.length === 0) return [];
  const rows = await updateRevocations(tx, scope.batchId, settlements.map(revocationRow));
  if (rows.length === 0) return [];
  const changedIds = new Set(rows.map((row) => row.id));
  const changed = settlements.filter((settlement) => changedIds.has(settlement.revocationId));
  await recordEvents(
    tx,
    names,
    changed.flatMap((s): EventDraft[] => {
      const type = revocationSettlementEvent(s);
      return type ? [{ partnerId: scope.partnerId, type, subjectId: s.revocationId }] : [];
    }),
  );
  const ended = rows.filter((row) => row.status !== "queued").map((row) => row.account);
  await wakeSweepsOfAccounts(tx, names, { chainId: scope.chainId, accounts: [...new Set(ended)] });
  await wakeRevocationRounds(tx, names, { chainId: scope.chainId, accounts: [...new Set(rows.map((row) => row.account))], partnerId: scope.partnerId, settled: [...changedIds] });
  return changed;
}
