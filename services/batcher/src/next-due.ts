import type { Db } from "@sweep/db";
import { states } from "@sweep/lifecycle";

/**
 * When the chain's earliest queued sweep or revocation waiting out a retry pause comes due (after
 * `now`); null when none waits. The due poller rests until then at the latest: a pause's end is
 * announced by no message. Sweeps are read through their hot wallets' (hot_wallet_id, status) index.
 */
export async function nextDueAt(db: Db, chainId: number, now: Date): Promise<Date | null> {
  const [row] = await db.$queryRaw<Array<{ dueAt: Date | null }>>`
    SELECT LEAST(
             (SELECT min(s.next_attempt_at) FROM hot_wallets h JOIN sweeps s ON s.hot_wallet_id = h.id
               WHERE h.chain_id = ${chainId} AND s.status = ${states.sweep.queued}::"WorkStatus" AND s.next_attempt_at > ${now}),
             (SELECT min(r.next_attempt_at) FROM revocations r
               WHERE r.chain_id = ${chainId} AND r.status = ${states.revocation.queued}::"WorkStatus" AND r.next_attempt_at > ${now})) AS "dueAt"`;
  return row?.dueAt ?? null;
}
