import { toDecimal, type Tx } from "@sweep/db";
import { Transaction } from "ethers";
import { transactionCost, type Receipt } from "./outcomes";

/** A confirmed withdrawal, as its ledger entry needs it. */
export interface ConfirmedWithdrawal {
  partnerId: string;
  chainId: number;
  /** the signed transaction the chain-sender stored: the value and the treasury are read from it */
  rawTx: string;
  receipt: Receipt;
}

/**
 * The one entry of a withdrawal that went through: what left the gas wallet, the value sent to the
 * treasury and the withdrawal's own gas together (it replaces the transaction's gas entry), keyed
 * by the hash so a redelivery books nothing twice.
 */
export function withdrawalEntry({ partnerId, chainId, rawTx, receipt }: ConfirmedWithdrawal) {
  const transaction = Transaction.from(rawTx);
  // The value is only trusted from the transaction that was mined.
  if (transaction.hash !== receipt.hash) throw new Error(`the stored transaction of ${receipt.hash} hashes to ${transaction.hash}`);
  if (transaction.to === null) throw new Error(`withdrawal ${receipt.hash} has no recipient`);
  const amount = -(transaction.value + transactionCost(receipt));
  return { partnerId, chainId, kind: "withdrawal" as const, amount, txHash: receipt.hash, note: `to ${transaction.to}`, dedupeKey: `withdrawal:${receipt.hash}` };
}

export async function bookWithdrawal(tx: Tx, withdrawal: ConfirmedWithdrawal): Promise<void> {
  const entry = withdrawalEntry(withdrawal);
  await tx.ledgerEntry.createMany({ data: [{ ...entry, amount: toDecimal(entry.amount) }], skipDuplicates: true });
}

/**
 * The entries of a drain that went through: its gas, and the value that left for `drainTo` as a
 * negative topup naming the recipient. Not a withdrawal: the fees due are not what it moved, and
 * counting it as withdrawn would let later fees go unpaid.
 */
export function drainEntries({ partnerId, chainId, rawTx, receipt }: ConfirmedWithdrawal, drainTo: string) {
  const transaction = Transaction.from(rawTx);
  if (transaction.hash !== receipt.hash) throw new Error(`the stored transaction of ${receipt.hash} hashes to ${transaction.hash}`);
  if (transaction.to?.toLowerCase() !== drainTo.toLowerCase()) throw new Error(`drain ${receipt.hash} went to ${transaction.to}, not ${drainTo}`);
  const scope = { partnerId, chainId, txHash: receipt.hash };
  return [
    { ...scope, kind: "gas" as const, amount: -transactionCost(receipt), note: null, dedupeKey: `gas:${receipt.hash}` },
    { ...scope, kind: "topup" as const, amount: -transaction.value, note: `drained to ${transaction.to}`, dedupeKey: `drain:${receipt.hash}` },
  ];
}

export async function bookDrain(tx: Tx, drain: ConfirmedWithdrawal, drainTo: string): Promise<void> {
  const data = drainEntries(drain, drainTo).map((entry) => ({ ...entry, amount: toDecimal(entry.amount) }));
  await tx.ledgerEntry.createMany({ data, skipDuplicates: true });
}
