import type { Db } from "@sweep/db";
import { unfinishedStates } from "@sweep/lifecycle";

/** Whether any stored transaction of the chain is unsettled (signed or broadcast): an idle watcher's cue to watch again, from the database alone. */
export async function anyInFlight(db: Db, chainId: number): Promise<boolean> {
  return (await db.chainTransaction.findFirst({ where: { chainId, status: { in: unfinishedStates.transaction } }, select: { id: true } })) !== null;
}
