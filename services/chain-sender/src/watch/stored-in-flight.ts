import type { Db } from "@sweep/db";

/** Whether any stored transaction of the chain is unsettled (signed or broadcast): an idle watcher's cue to watch again, from the database alone. */
export async function anyInFlight(db: Db, chainId: number): Promise<boolean> {
  return (await db.chainTransaction.findFirst({ where: { chainId, status: { in: ["signed", "broadcast"] } }, select: { id: true } })) !== null;
}
