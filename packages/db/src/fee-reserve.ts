import type { Environment, Prisma } from "@prisma/client";
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
type ReserveKind = (typeof reserveKinds)[number];

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
  return reserveOf((kind) => sums.find((s) => s.kind === kind)?._sum.amount);
}

/** Every partner of the environment with fees due above zero on one of the chains, in one grouped query. */
export async function feesDueOnChains(db: Db | Tx, environment: Environment, chainIds: readonly number[]): Promise<Array<{ partnerId: string; chainId: number; due: bigint }>> {
  const sums = await db.ledgerEntry.groupBy({
    by: ["partnerId", "chainId", "kind"],
    where: { partner: { environment }, chainId: { in: [...chainIds] }, kind: { in: [...reserveKinds] } },
    _sum: { amount: true },
    orderBy: [{ partnerId: "asc" }, { chainId: "asc" }],
  });
  const byReserve = new Map<string, { partnerId: string; chainId: number; sums: Map<string, Prisma.Decimal | null> }>();
  for (const row of sums) {
    const key = `${row.partnerId}:${row.chainId}`;
    if (!byReserve.has(key)) byReserve.set(key, { partnerId: row.partnerId, chainId: row.chainId, sums: new Map() });
    byReserve.get(key)!.sums.set(row.kind, row._sum.amount);
  }
  return [...byReserve.values()]
    .map(({ partnerId, chainId, sums }) => ({ partnerId, chainId, due: reserveOf((kind) => sums.get(kind)).due }))
    .filter((reserve) => reserve.due > 0n);
}

function reserveOf(sumOf: (kind: ReserveKind) => Prisma.Decimal | null | undefined): FeeReserve {
  const sum = (kind: ReserveKind) => {
    const value = sumOf(kind);
    return value ? toBigInt(value) : 0n;
  };
  const accrued = -(sum("fee") + sum("fee_charge") + sum("fee_credit"));
  const withdrawn = -sum("withdrawal");
  const due = accrued - withdrawn;
  return { accrued, withdrawn, due: due > 0n ? due : 0n };
}
