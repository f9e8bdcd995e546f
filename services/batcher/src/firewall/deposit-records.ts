import type { Tx } from "@sweep/db";
import type { FoundDeposit } from "./deposit-scan";

/** A deposit and the block it was seen in. */
export type BlockDeposit = FoundDeposit & { blockNumber: number; blockHash: string };

/**
 * The deposits of a run of blocks, pending, in the run's transaction. Each once: a block read again
 * (after a reorg that kept it, or by a second batcher that lost the cursor) stores nothing new.
 */
export async function storeDeposits(tx: Tx, chainId: number, deposits: readonly BlockDeposit[]): Promise<void> {
  if (deposits.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO deposits (id, partner_id, chain_id, address, token, token_address, amount, tx_hash, log_index, block_number, block_hash)
    SELECT gen_random_uuid(), d.partner_id, ${chainId}, d.address, d.token, d.token_address, d.amount, d.tx_hash, d.log_index, d.block_number, d.block_hash
      FROM unnest(
        ${deposits.map((d) => d.account.partnerId)}::uuid[], ${deposits.map((d) => d.account.address)}::text[], ${deposits.map((d) => d.token)}::text[],
        ${deposits.map((d) => d.tokenAddress)}::text[], ${deposits.map((d) => d.amount.toString())}::numeric[], ${deposits.map((d) => d.txHash)}::text[],
        ${deposits.map((d) => d.logIndex)}::int[], ${deposits.map((d) => BigInt(d.blockNumber))}::bigint[], ${deposits.map((d) => d.blockHash)}::text[]
      ) AS d(partner_id, address, token, token_address, amount, tx_hash, log_index, block_number, block_hash)
    ON CONFLICT (partner_id, chain_id, tx_hash, log_index) DO NOTHING`;
}

/**
 * After a reorg back to block `meet`: the pending deposits of the removed blocks, gone (a transaction
 * mined again is found again in its new block). Confirmed ones stay: the reorg went deeper than the
 * chain's confirmations, which the caller reports.
 */
export async function removeDeposits(tx: Tx, chainId: number, meet: number): Promise<{ removed: number; confirmedRemoved: number }> {
  const removed = await tx.$executeRaw`DELETE FROM deposits WHERE chain_id = ${chainId} AND status = 'pending' AND block_number > ${BigInt(meet)}`;
  const confirmedRemoved = await tx.deposit.count({ where: { chainId, status: "confirmed", blockNumber: { gt: BigInt(meet) } } });
  return { removed, confirmedRemoved };
}
