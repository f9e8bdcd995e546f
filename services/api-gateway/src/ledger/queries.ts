import type { LedgerEntryRow, LedgerListQuery } from "@sweep/api-contract";
import type { Db, Prisma } from "@sweep/db";
import { ledgerCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";
import { readPaidFor } from "./paid-for";
import { readBalancesAfter } from "./running-balance";

const ledgerSelect = { id: true, chainId: true, kind: true, amount: true, txHash: true, sweepId: true, note: true, createdAt: true } satisfies Prisma.LedgerEntrySelect;

/** GET /v1/ledger: newest first by id (the entries' bigserial), below the cursor's id, filters combined. */
export async function listLedgerEntries(db: Db, partnerId: string, { query, below, limit }: PageRequest<LedgerListQuery>): Promise<Page<LedgerEntryRow>> {
  const where: Prisma.LedgerEntryWhereInput = {
    partnerId,
    ...(below !== null && { id: { lt: below } }),
    ...(query.chain_id !== undefined && { chainId: query.chain_id }),
    ...(query.kind && { kind: query.kind }),
    ...createdWithin(query),
  };
  const rows = await db.ledgerEntry.findMany({ where, orderBy: { id: "desc" }, take: limit + 1, select: ledgerSelect });
  const listed = rows.slice(0, limit).map((row) => ({ ...row, amount: BigInt(row.amount.toFixed()) }));
  const [balances, paid] = await Promise.all([
    readBalancesAfter(db, partnerId, listed),
    readPaidFor(db, listed.flatMap((row) => (row.kind === "gas" && row.txHash ? [row.txHash] : []))),
  ]);
  return pageOf(
    rows.map((row) => ({ ...row, seq: row.id, balanceAfter: balances.get(row.id) ?? 0n, paidFor: (row.kind === "gas" && row.txHash && paid.get(row.txHash)) || null })),
    limit,
    ledgerCursors,
  );
}

/** The `created_after` (included) and `created_before` (left out) of a ledger query, as a filter. */
export function createdWithin(query: Pick<LedgerListQuery, "created_after" | "created_before">): Prisma.LedgerEntryWhereInput {
  if (!query.created_after && !query.created_before) return {};
  return { createdAt: { ...(query.created_after && { gte: new Date(query.created_after) }), ...(query.created_before && { lt: new Date(query.created_before) }) } };
}
