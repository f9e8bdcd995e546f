import type { LedgerEntryRow, LedgerListQuery } from "@sweep/api-contract";
import type { Db, Prisma } from "@sweep/db";
import { ledgerCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";

const ledgerSelect = { id: true, chainId: true, kind: true, amount: true, txHash: true, sweepId: true, note: true, createdAt: true } satisfies Prisma.LedgerEntrySelect;

/** GET /v1/ledger: newest first by id (the entries' bigserial), below the cursor's id, filters combined. */
export async function listLedgerEntries(db: Db, partnerId: string, { query, below, limit }: PageRequest<LedgerListQuery>): Promise<Page<LedgerEntryRow>> {
  const where: Prisma.LedgerEntryWhereInput = {
    partnerId,
    ...(below !== null && { id: { lt: below } }),
    ...(query.chain_id !== undefined && { chainId: query.chain_id }),
    ...(query.kind && { kind: query.kind }),
  };
  const rows = await db.ledgerEntry.findMany({ where, orderBy: { id: "desc" }, take: limit + 1, select: ledgerSelect });
  return pageOf(
    rows.map((row) => ({ ...row, seq: row.id })),
    limit,
    ledgerCursors,
  );
}
