import type { Db } from "@sweep/db";
import { eventually } from "./stack";

/**
 * Waits until the batcher's block runs (delegation firewall, deposit detection) have read `block` of
 * the chain. A story that funds an address and only then names it in a sweep waits for this first, so
 * the deposit is in a block read before the address entered the inventory: no deposit.detected for it.
 */
export async function blocksRead(db: Db, chainId: number, block: number): Promise<void> {
  await eventually(`the batcher to read block ${block} of chain ${chainId}`, async () => {
    const cursor = await db.chainWatchCursor.findUnique({ where: { chainId } });
    return cursor !== null && cursor.nextBlock > BigInt(block) ? true : undefined;
  });
}
