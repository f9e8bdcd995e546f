import type { Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";

/**
 * Wakes for the batcher, written through the outbox in the transaction that unblocked the work (a
 * settlement in the ledger, a sent batch in the chain-sender): the work starts at once rather than
 * on the batcher's poll, which stays as the safety net. Each is one query and at most one insert,
 * whatever the batch's size.
 */

/** hot_wallet.wake for one hot wallet: its next batch may be prepared (the one before it was sent, mined or settled). */
export async function wakeHotWallet(tx: Tx, names: QueueNames, wake: { hotWalletId: string; chainId: number }): Promise<void> {
  await tx.outboxMessage.create({ data: outboxDraft("hot_wallet.wake", wake, names) });
}

/**
 * hot_wallet.wake for each hot wallet with queued sweeps of these accounts on the chain, but
 * `except` (woken already): a sweep waits while a sweep of its address in any hot wallet of the
 * chain is processing (an address is delegated to one delegate at a time), and while a revocation
 * of its address requested before it is queued or processing.
 */
export async function wakeSweepsOfAccounts(tx: Tx, names: QueueNames, wake: { chainId: number; accounts: readonly string[]; except?: string }): Promise<void> {
  const { chainId, accounts, except = null } = wake;
  if (accounts.length === 0) return;
  const hotWallets = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT DISTINCT s.hot_wallet_id::text AS id FROM sweeps s
     WHERE s.chain_id = ${chainId} AND s.account = ANY(${[...accounts]}::text[]) AND s.status = 'queued'
       AND s.hot_wallet_id IS DISTINCT FROM ${except}::uuid`;
  if (hotWallets.length === 0) return;
  await tx.outboxMessage.createMany({ data: hotWallets.map(({ id }) => outboxDraft("hot_wallet.wake", { hotWalletId: id, chainId }, names)) });
}

/**
 * The revocation round of each partner with a queued revocation on the chain that may have waited
 * for what was settled or sent: one of these accounts (waiting for a sweep or revocation of it that was
 * processing), or any of `partnerId`'s (its next revocation batch). The wake is the revocation.queued
 * of the partner's oldest such revocation, which asks the batcher for the partner's round on the
 * chain, as `sweepctl partner enable` does; `settled` (back in the queue after a failed attempt,
 * pausing) are left out. A partner whose revocation batch was sent (`partnerId`, no accounts) may
 * start its next one, which waited while that one was being prepared.
 */
export async function wakeRevocationRounds(
  tx: Tx,
  names: QueueNames,
  wake: { chainId: number; accounts: readonly string[]; partnerId?: string; settled?: readonly string[] },
): Promise<void> {
  const { chainId, accounts, partnerId = null, settled = [] } = wake;
  if (accounts.length === 0 && partnerId === null) return;
  const oldest = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT DISTINCT ON (r.partner_id) r.id::text AS id FROM revocations r
     WHERE r.chain_id = ${chainId} AND r.status = 'queued' AND NOT (r.id = ANY(${[...settled]}::uuid[]))
       AND (r.account = ANY(${[...accounts]}::text[]) OR r.partner_id = ${partnerId}::uuid)
     ORDER BY r.partner_id, r.seq`;
  if (oldest.length === 0) return;
  await tx.outboxMessage.createMany({ data: oldest.map(({ id }) => outboxDraft("revocation.queued", { revocationId: id, chainId }, names)) });
}
