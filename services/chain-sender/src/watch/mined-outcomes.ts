import type { ChainClient, Receipt } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import { decodeSweepOutcomes } from "@sweep/contracts";
import type { Db, Tx } from "@sweep/db";
import { correctedFrom, states } from "@sweep/lifecycle";
import { revocationOutcome, type RevocationOutcome } from "../send/revocation-plan";
import { matchOutcomes } from "../send/sweep-plan";

/**
 * What a mined transaction did to each item it carried, per purpose (batch-purposes.ts chooses):
 * a sweep batch's from the delegate's events in the receipt, a revocation batch's from the
 * accounts' code at its block, read before settling (no chain call inside a database transaction).
 */

/** A revocation item the transaction carried, and what the account's code at its block says of it. */
export interface RevocationItemOutcome {
  itemId: string;
  revocationId: string;
  outcome: RevocationOutcome;
}

/**
 * The revocations a restored batch takes back (restoreAbandoned): those its failure sent back to the
 * queue (in no batch since: queued, or rejected by the batcher's checks) or failed when their
 * attempts ran out (still in it). The same rule as its sweeps'.
 */
export function takenBackByRestore(batchId: string) {
  return {
    OR: [
      { status: { in: correctedFrom("revocation", "processing").filter((s) => s !== "failed") }, batchId: null },
      { status: { in: correctedFrom("revocation", "processing").filter((s) => s === "failed") }, batchId },
    ],
  };
}

/**
 * The items a revocation batch's transaction carried: those whose revocation is still processing in
 * it, and, for a given-up transaction being restored, those its restoration takes back.
 */
async function carriedRevocations(db: Db, batchId: string, restoring: boolean): Promise<Array<{ id: string; revocationId: string; account: string }>> {
  const processing = { status: states.revocation.processing, batchId };
  const items = await db.batchItem.findMany({
    where: { batchId, revocation: restoring ? { OR: [processing, takenBackByRestore(batchId)] } : processing },
    select: { id: true, revocationId: true, revocation: { select: { account: true } } },
    orderBy: { position: "asc" },
  });
  return items.map((item) => ({ id: item.id, revocationId: item.revocationId!, account: item.revocation!.account }));
}

/** Each carried revocation's outcome from its account's code at the receipt's block (none when the transaction reverted). */
export async function readRevocationOutcomes(db: Db, client: ChainClient, batchId: string, receipt: Receipt, restoring = false): Promise<RevocationItemOutcome[]> {
  if (!receipt.succeeded) return [];
  const carried = await carriedRevocations(db, batchId, restoring);
  // At the receipt's block; after a long outage of ours a full node keeps no state that old, and the head's code is the answer.
  const codes = await Promise.all(carried.map((item) => client.codeAtOrLater(item.account, receipt.blockNumber)));
  return carried.map((item, i) => ({ itemId: item.id, revocationId: item.revocationId, outcome: revocationOutcome(codes[i]!) }));
}

/** The items the transaction carried are those whose sweep is still processing in this batch (dropped ones were rejected). */
export async function recordItemOutcomes(tx: Tx, batchId: string, delegate: string, receipt: Receipt, logger: Logger): Promise<void> {
  const carried = await tx.batchItem.findMany({
    where: { batchId, sweep: { status: states.sweep.processing, batchId } },
    select: { id: true, position: true, sweep: { select: { account: true } } },
    orderBy: { position: "asc" },
  });
  const matched = matchOutcomes(
    carried.map((item) => ({ id: item.id, account: item.sweep!.account })),
    decodeSweepOutcomes(receipt.logs, delegate),
  );
  if (!matched) {
    // The ledger then fails these sweeps' attempt (internal) rather than guess their outcomes.
    logger.error("the receipt's sweep events do not match the batch items", { batchId, hash: receipt.hash, items: carried.length });
    return;
  }
  // One statement for the whole batch: per-item updates cost the watcher a query each on the way to the next batch.
  await tx.$executeRaw`
    UPDATE batch_items AS b
       SET outcome = v.outcome, amount = v.amount::numeric, gas_used = v.gas_used::bigint
      FROM unnest(${matched.map((m) => m.item.id)}::text[], ${matched.map((m) => (m.outcome.swept ? "swept" : m.outcome.reason))}::text[],
                  ${matched.map((m) => (m.outcome.swept ? m.outcome.amount.toString() : null))}::text[], ${matched.map((m) => m.outcome.gasUsed.toString())}::text[])
           AS v(id, outcome, amount, gas_used)
     WHERE b.id = v.id::uuid`;
}

/** One statement for the whole batch, as for sweeps. */
export async function recordRevocationOutcomes(tx: Tx, outcomes: readonly RevocationItemOutcome[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE batch_items AS b
       SET outcome = v.outcome
      FROM unnest(${outcomes.map((o) => o.itemId)}::text[], ${outcomes.map((o) => o.outcome)}::text[]) AS v(id, outcome)
     WHERE b.id = v.id::uuid`;
}
