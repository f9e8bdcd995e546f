import type { Db } from "./client";

/** Sweeps or revocations of one chain not yet final, at one stage (see `workBacklog`). */
export interface WorkBacklogRow {
  work: "sweep" | "revocation";
  chainId: number;
  stage: "queued" | "claimed" | "sent" | "settling";
  items: number;
  oldestWaitSeconds: number;
}

/**
 * The sweeps and revocations of the chains not yet final, by stage: `queued`, or processing in a
 * batch `claimed` (open), `sent`, or `settling` (confirmed or failed, the ledger not done). The wait
 * of a queued item runs from when it became due (its creation, or the end of its retry pause: a
 * pause is no one's delay), a processing one's from its batch's claim. A disabled partner's queued
 * work waits by design (the spec's disabled account) and is left out; what it has in flight is not.
 * Stages with nothing are absent.
 *
 * Cost: sweeps are found through each hot wallet of the chains by `sweeps (hot_wallet_id, status)`,
 * so one scrape reads an index entry per hot wallet plus the rows not final, however many sweeps
 * are final; revocations by `revocations (chain_id, status)`.
 */
export function workBacklog(db: Db, chainIds: readonly number[]): Promise<WorkBacklogRow[]> {
  return db.$queryRaw<WorkBacklogRow[]>`
    WITH open_work AS (
      SELECT 'sweep' AS work, h.chain_id, s.status, s.created_at, s.next_attempt_at, s.batch_id, p.enabled
        FROM hot_wallets h
        JOIN partners p ON p.id = h.partner_id
        JOIN sweeps s ON s.hot_wallet_id = h.id AND s.status IN ('queued', 'processing')
       WHERE h.chain_id = ANY(${[...chainIds]}::int[])
      UNION ALL
      SELECT 'revocation', r.chain_id, r.status, r.created_at, r.next_attempt_at, r.batch_id, p.enabled
        FROM revocations r
        JOIN partners p ON p.id = r.partner_id
       WHERE r.status IN ('queued', 'processing') AND r.chain_id = ANY(${[...chainIds]}::int[])
    )
    SELECT w.work, w.chain_id AS "chainId",
           CASE WHEN w.status = 'queued' THEN 'queued'
                WHEN b.status = 'sent' THEN 'sent'
                WHEN b.status IN ('confirmed', 'failed') THEN 'settling'
                ELSE 'claimed' END AS stage,
           count(*)::int AS items,
           COALESCE(GREATEST(0, EXTRACT(EPOCH FROM now() - min(
             CASE WHEN w.status = 'queued' THEN GREATEST(w.created_at, w.next_attempt_at) ELSE COALESCE(b.created_at, w.created_at) END
           ))), 0)::float8 AS "oldestWaitSeconds"
      FROM open_work w
      LEFT JOIN batches b ON b.id = w.batch_id AND w.status = 'processing'
     WHERE w.status = 'processing' OR w.enabled
     GROUP BY 1, 2, 3`;
}
