import { toDecimal, type Tx } from "@sweep/db";
import { transactionCost, type Receipt } from "./outcomes";

/**
 * The gas entry of a confirmed transaction: what the gas wallet paid, booked once per hash
 * (a duplicate key is skipped, so a redelivered outcome books nothing twice).
 */
export async function bookTransactionGas(tx: Tx, entry: { partnerId: string; chainId: number; hash: string } & Pick<Receipt, "gasUsed" | "effectiveGasPrice" | "l1Fee">): Promise<void> {
  await tx.ledgerEntry.createMany({
    data: [{ partnerId: entry.partnerId, chainId: entry.chainId, kind: "gas", amount: toDecimal(-transactionCost(entry)), txHash: entry.hash, dedupeKey: `gas:${entry.hash}` }],
    skipDuplicates: true,
  });
}

/** Fee entries of swept sweeps, one per sweep at most; a zero fee moves nothing and books nothing. */
export async function bookSweepFees(tx: Tx, fees: Array<{ partnerId: string; chainId: number; sweepId: string; txHash: string; fee: bigint }>): Promise<void> {
  const data = fees
    .filter((f) => f.fee > 0n)
    .map((f) => ({ partnerId: f.partnerId, chainId: f.chainId, kind: "fee" as const, amount: toDecimal(-f.fee), txHash: f.txHash, sweepId: f.sweepId, dedupeKey: `fee:${f.sweepId}` }));
  if (data.length > 0) await tx.ledgerEntry.createMany({ data, skipDuplicates: true });
}
