import type { DepositListQuery } from "@sweep/api-contract";
import { depositViewSelect, type Db, type DepositView, type Prisma } from "@sweep/db";
import { checksumAddress } from "../chains";
import { depositCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";

/** How many of an address's deposits its inventory entry shows. */
export const RECENT_DEPOSITS = 5;

/** GET /v1/deposits: newest first by seq, below the cursor's seq, filters combined. */
export async function listDeposits(db: Db, partnerId: string, page: PageRequest<DepositListQuery>): Promise<Page<DepositView>> {
  const { query } = page;
  const where: Prisma.DepositWhereInput = {
    partnerId,
    ...(page.below !== null ? { seq: { lt: page.below } } : {}),
    ...(query.chain_id !== undefined ? { chainId: query.chain_id } : {}),
    ...(query.address !== undefined ? { address: checksumAddress(query.address) } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
  };
  const rows = await db.deposit.findMany({ where, orderBy: { seq: "desc" }, take: page.limit + 1, select: { ...depositViewSelect, seq: true } });
  return pageOf(rows, page.limit, depositCursors);
}

/**
 * The inventory's entries with each one's newest deposits: one query, RECENT_DEPOSITS read per
 * address by its index, however many deposits an address has had.
 */
export async function withRecentDeposits<T extends { chainId: number; address: string }>(db: Db, partnerId: string, entries: readonly T[]): Promise<Array<T & { deposits: DepositView[] }>> {
  if (entries.length === 0) return [];
  const rows = await db.$queryRaw<DepositView[]>`
    SELECT d.id::text AS id, d.chain_id AS "chainId", d.address, d.token, d.token_address AS "tokenAddress", d.amount, d.tx_hash AS "txHash",
           d.log_index AS "logIndex", d.block_number AS "blockNumber", d.status::text AS status, d.detected_at AS "detectedAt", d.confirmed_at AS "confirmedAt"
      FROM unnest(${entries.map((e) => e.chainId)}::int[], ${entries.map((e) => e.address)}::text[]) AS entry(chain_id, address)
      CROSS JOIN LATERAL (
        SELECT * FROM deposits
         WHERE partner_id = ${partnerId}::uuid AND chain_id = entry.chain_id AND address = entry.address
         ORDER BY seq DESC LIMIT ${RECENT_DEPOSITS}
      ) d
     ORDER BY d.seq DESC`;
  const byEntry = new Map<string, DepositView[]>();
  for (const row of rows) byEntry.set(`${row.chainId}:${row.address}`, [...(byEntry.get(`${row.chainId}:${row.address}`) ?? []), row]);
  return entries.map((entry) => ({ ...entry, deposits: byEntry.get(`${entry.chainId}:${entry.address}`) ?? [] }));
}
