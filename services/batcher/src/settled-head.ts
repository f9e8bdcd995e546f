import type { Db } from "@sweep/db";
import { states } from "@sweep/lifecycle";

/**
 * The highest block the suite settled a transaction of the chain in. The checks read no state
 * older than it: a node behind a load balancer that lags would show a first sweep's delegation or a
 * revocation as not yet there, and reject work that is fine.
 */
export async function settledHead(db: Db, chainId: number): Promise<number> {
  const { _max } = await db.chainTransaction.aggregate({ where: { chainId, status: states.transaction.confirmed }, _max: { blockNumber: true } });
  return Number(_max.blockNumber ?? 0n);
}
