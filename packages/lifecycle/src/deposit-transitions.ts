import type { Tx } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { recordEvents } from "./events";
import { fromStates } from "./transitions";

/**
 * pending → confirmed: the deposits of a chain at or below its final block, each with its
 * deposit.detected event (which reads the deposit when delivered), in the caller's transaction, by
 * the batcher's block runs. Guarded by the status: a block run read twice confirms nothing twice.
 * Returns them by token.
 */
export async function confirmDeposits(tx: Tx, names: QueueNames, chainId: number, finalBlock: number): Promise<Array<{ token: string }>> {
  if (finalBlock < 0) return [];
  const confirmed = await tx.$queryRaw<Array<{ id: string; partnerId: string; token: string }>>`
    UPDATE deposits SET status = 'confirmed', confirmed_at = now()
     WHERE chain_id = ${chainId} AND status = ANY(${fromStates("deposit", "confirmed")}::"DepositStatus"[]) AND block_number <= ${BigInt(finalBlock)}
    RETURNING id::text, partner_id::text AS "partnerId", token`;
  await recordEvents(
    tx,
    names,
    confirmed.map((deposit) => ({ partnerId: deposit.partnerId, type: "deposit.detected", subjectId: deposit.id })),
  );
  return confirmed;
}
