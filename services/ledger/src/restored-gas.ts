import { toDecimal, type Tx } from "@sweep/db";
import { bookTransactionGas } from "./ledger-entries";

/**
 * The gas of a transaction whose block the reconciler had already reconciled when it was booked.
 * Only a transaction given up and later found mined is (the chain-sender restores it): while it
 * was given up, the reconciliation explained its spend as a top-up. Its gas entry is booked with a
 * top-up reversing that one, under the gas wallet's reconciliation row locked (commitReconciliation
 * locks it too), so the ledger equals the chain once. False, booking nothing, for any other
 * transaction: its settlement books its gas as usual.
 */
export async function bookGasBehindReconciliation(
  tx: Tx,
  entry: { partnerId: string; chainId: number; gasWalletId: string; hash: string; blockNumber: number; gasUsed: bigint; effectiveGasPrice: bigint },
): Promise<boolean> {
  const [state] = await tx.$queryRaw<Array<{ reconciledBlock: bigint | null }>>`
    SELECT reconciled_block AS "reconciledBlock" FROM gas_wallet_chain_states
     WHERE gas_wallet_id = ${entry.gasWalletId}::uuid AND chain_id = ${entry.chainId} FOR UPDATE`;
  if (state?.reconciledBlock === null || state?.reconciledBlock === undefined || state.reconciledBlock < BigInt(entry.blockNumber)) return false;
  if ((await tx.ledgerEntry.count({ where: { dedupeKey: `gas:${entry.hash}` } })) > 0) return false;
  await bookTransactionGas(tx, entry);
  await tx.ledgerEntry.create({
    data: {
      partnerId: entry.partnerId,
      chainId: entry.chainId,
      kind: "topup",
      amount: toDecimal(entry.gasUsed * entry.effectiveGasPrice),
      txHash: entry.hash,
      note: `reverses the top-up that explained ${entry.hash}'s gas while it was given up`,
      dedupeKey: `topup:restored:${entry.hash}`,
    },
  });
  return true;
}
