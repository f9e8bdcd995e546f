import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { countsAsSent, type BroadcastVerdict, type ChainClient } from "@sweep/rpc";
import { markBroadcast } from "./transaction-store";

/**
 * Sends a stored transaction's raw bytes. "Already known", "nonce too low" and "replacement
 * underpriced" mean a transaction of ours holds or held the nonce: it counts as sent, and the
 * receipts of the nonce's stored transactions tell which one was mined.
 */
export async function broadcastStored(db: Db, client: ChainClient, stored: { id: string; rawTx: string }, logger: Logger): Promise<"accepted" | BroadcastVerdict> {
  const verdict = await client.broadcast(stored.rawTx);
  return recordVerdict(db, stored, verdict, logger);
}

/** As broadcastStored, with the node's own words when it refused (the fee cap it names, for one). */
export async function broadcastStoredAnswer(db: Db, client: ChainClient, stored: { id: string; rawTx: string }, logger: Logger): Promise<{ verdict: "accepted" | BroadcastVerdict; message: string }> {
  let message = "";
  const verdict = await client.broadcast(stored.rawTx, (words) => (message = words));
  return { verdict: await recordVerdict(db, stored, verdict, logger), message };
}

async function recordVerdict(db: Db, stored: { id: string }, verdict: "accepted" | BroadcastVerdict, logger: Logger): Promise<"accepted" | BroadcastVerdict> {
  if (countsAsSent(verdict)) {
    await markBroadcast(db, stored.id);
    logger.info("transaction broadcast", { verdict });
  } else {
    logger.warn("transaction not broadcast", { verdict });
  }
  return verdict;
}
