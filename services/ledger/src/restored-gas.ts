import { toDecimal, type Tx } from "@sweep/db";
import { bookTransactionGas } from "./ledger-entries";
import type { Receipt } from "./outcomes";
import { explainedChange } from "./reconcile-rules";
import { chainMovingEntries } from "./reconcile-store";

export interface BehindReconciliation {
  partnerId: string;
  chainId: number;
  gasWalletId: string;
  hash: string;
  blockNumber: number;
}

/**
 * Books a transaction's chain-moving entries (`book`) when its block may have been reconciled
 * already. Only a transaction given up and later found mined is (the chain-sender restores it):
 * while it was given up, the reconciliation explained its spend as a top-up. Its entries are
 * booked with a top-up reversing what they explain, under the gas wallet's reconciliation row
 * locked (commitReconciliation locks it too), so the ledger equals the chain once. False, booking
 * nothing, for any other transaction: its settlement books its entries as usual.
 */
export async function bookBehindReconciliation(tx: Tx, at: BehindReconciliation, book: (tx: Tx) => Promise<void>): Promise<boolean> {
  const [state] = await tx.$queryRaw<Array<{ reconciledBlock: bigint | null }>>`
    SELECT reconciled_block AS "reconciledBlock" FROM gas_wallet_chain_states
     WHERE gas_wallet_id = ${at.gasWalletId}::uuid AND chain_id = ${at.chainId} FOR UPDATE`;
  if (state?.reconciledBlock === null || state?.reconciledBlock === undefined || state.reconciledBlock < BigInt(at.blockNumber)) return false;
  // Entries already there were booked before the reconciliation (it explained them) or with their reversal.
  if ((await chainMovingEntries(tx, at.partnerId, at.chainId, [at.hash])).length > 0) return false;
  await book(tx);
  const explained = explainedChange([at.hash], await chainMovingEntries(tx, at.partnerId, at.chainId, [at.hash]));
  await tx.ledgerEntry.create({
    data: {
      partnerId: at.partnerId,
      chainId: at.chainId,
      kind: "topup",
      amount: toDecimal(-explained),
      txHash: at.hash,
      note: `reverses the top-up that explained ${at.hash}'s spend while it was given up`,
      dedupeKey: `topup:restored:${at.hash}`,
    },
  });
  return true;
}

/** A transaction carrying nothing on chain but its gas, booked behind the reconciliation as above. */
export async function bookGasBehindReconciliation(tx: Tx, entry: BehindReconciliation & Pick<Receipt, "gasUsed" | "effectiveGasPrice" | "l1Fee">): Promise<boolean> {
  return bookBehindReconciliation(tx, entry, (tx) => bookTransactionGas(tx, entry));
}
