import type { Db, Tx } from "./client";
import { toBigInt } from "./decimal";

/** What a partner's gas wallet on one chain keeps in reserve for the platform, in wei. */
export interface FeeReserve {
  /** fees and charges accrued minus credits; below zero when credits exceed them */
  accrued: bigint;
  /** fees withdrawn so far, each withdrawal with its own gas */
  withdrawn: bigint;
  /** accrued and not yet withdrawn, not below zero: kept on the gas wallet, never spent on gas */
  due: bigint;
}

const reserveKinds = ["fee", "fee_charge", "fee_credit", "withdrawal"] as const;

/**
 * The fee reserve from the ledger, in one grouped query. Ledger amounts carry the sign of the gas
 * wallet's balance: fees, charges and withdrawals are negative, credits positive.
 */
export async function feeReserve(db: Db | Tx, partnerId: string, chainId: number): Promise<FeeReserve> {
  const sums = await db.ledgerEntry.groupBy({
    by: ["kind"],
    where: { partnerId, chainId, kind: { in: [...reserveKinds] } },
    _sum: { amount: true },
  });
  const sum = (kind: (typeof reserveKinds)[number]) => {
    const value = sums.find((s) => s.kind === kind)?._sum.amount;
    return value ? toBigInt(value) : 0n;
  };
  const accrued = -(sum("fee") + sum("fee_charge") + sum("fee_credit"));
  const withdrawn = -sum("withdrawal");
  const due = accrued - withdrawn;
  return { accrued, withdrawn, due: due > 0n ? due : 0n };
}
