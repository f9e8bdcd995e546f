import type { UsageDay } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { finalStates, states } from "@sweep/lifecycle";

export interface UsageRequest {
  /** the first UTC day, YYYY-MM-DD */
  first: string;
  days: number;
  /** in the order the rows of a day list them */
  chainIds: number[];
}

/**
 * GET /v1/usage in one statement: every day of the window on every chain asked for, zeros where
 * nothing happened. Sweeps and revocations count on their creation day by how they ended; gas and
 * fees on the day their ledger entry was booked. The gas of a withdrawal's own transaction is left
 * out: its withdrawal entry already carries it, and a withdrawal is the fee reserve leaving, not a
 * new expense.
 */
export async function usageDays(db: Db, partnerId: string, { first, days, chainIds }: UsageRequest): Promise<UsageDay[]> {
  return db.$queryRaw<UsageDay[]>`
    WITH chains AS (
      SELECT chain_id, position FROM unnest(${chainIds}::int[]) WITH ORDINALITY AS c(chain_id, position)
    ), days AS (
      SELECT day::date AS day FROM generate_series(${first}::date, ${first}::date + (${days}::int - 1), interval '1 day') AS day
    ), bounds AS (
      SELECT ${first}::date::timestamp AT TIME ZONE 'UTC' AS since, (${first}::date + ${days}::int)::timestamp AT TIME ZONE 'UTC' AS until
    ), sweep_days AS (
      SELECT (s.created_at AT TIME ZONE 'UTC')::date AS day, s.chain_id,
             COUNT(*) FILTER (WHERE s.status = ${states.sweep.swept}::"WorkStatus") AS done,
             COUNT(*) FILTER (WHERE s.status = ${states.sweep.failed}::"WorkStatus") AS failed,
             COUNT(*) FILTER (WHERE s.status = ${states.sweep.rejected}::"WorkStatus") AS rejected
        FROM sweeps s, bounds b
       WHERE s.partner_id = ${partnerId}::uuid AND s.chain_id = ANY(${chainIds}::int[])
         AND s.created_at >= b.since AND s.created_at < b.until AND s.status = ANY(${finalStates("sweep")}::"WorkStatus"[])
       GROUP BY 1, 2
    ), revocation_days AS (
      SELECT (r.created_at AT TIME ZONE 'UTC')::date AS day, r.chain_id, COUNT(*) AS done
        FROM revocations r, bounds b
       WHERE r.partner_id = ${partnerId}::uuid AND r.chain_id = ANY(${chainIds}::int[])
         AND r.created_at >= b.since AND r.created_at < b.until AND r.status = ${states.revocation.revoked}::"WorkStatus"
       GROUP BY 1, 2
    ), gas_days AS (
      SELECT (g.created_at AT TIME ZONE 'UTC')::date AS day, g.chain_id, -SUM(g.amount) AS spent
        FROM ledger_entries g, bounds b
       WHERE g.partner_id = ${partnerId}::uuid AND g.chain_id = ANY(${chainIds}::int[])
         AND g.created_at >= b.since AND g.created_at < b.until AND g.kind = 'gas'
         AND NOT EXISTS (SELECT 1 FROM ledger_entries w
                          WHERE w.partner_id = g.partner_id AND w.chain_id = g.chain_id AND w.kind = 'withdrawal' AND w.tx_hash = g.tx_hash)
       GROUP BY 1, 2
    ), fee_days AS (
      SELECT (f.created_at AT TIME ZONE 'UTC')::date AS day, f.chain_id, -SUM(f.amount) AS fees
        FROM ledger_entries f, bounds b
       WHERE f.partner_id = ${partnerId}::uuid AND f.chain_id = ANY(${chainIds}::int[])
         AND f.created_at >= b.since AND f.created_at < b.until AND f.kind IN ('fee', 'fee_charge', 'fee_credit')
       GROUP BY 1, 2
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
           c.chain_id,
           COALESCE(s.done, 0)::int AS sweeps_done,
           COALESCE(s.failed, 0)::int AS sweeps_failed,
           COALESCE(s.rejected, 0)::int AS sweeps_rejected,
           COALESCE(r.done, 0)::int AS revocations_done,
           COALESCE(g.spent, 0)::text AS gas_spent,
           COALESCE(f.fees, 0)::text AS fees
      FROM days d CROSS JOIN chains c
      LEFT JOIN sweep_days s ON s.day = d.day AND s.chain_id = c.chain_id
      LEFT JOIN revocation_days r ON r.day = d.day AND r.chain_id = c.chain_id
      LEFT JOIN gas_days g ON g.day = d.day AND g.chain_id = c.chain_id
      LEFT JOIN fee_days f ON f.day = d.day AND f.chain_id = c.chain_id
     ORDER BY d.day, c.position`;
}
