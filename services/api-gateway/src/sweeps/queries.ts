import type { SweepListQuery } from "@sweep/api-contract";
import type { Db, Prisma } from "@sweep/db";
import { checksumAddress } from "../chains";
import { sweepSelect, type SweepView } from "./creation";
import { encodeCursor } from "./cursor";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /v1/sweeps/{id}: null when the id is malformed or names another account's sweep. */
export async function findSweep(db: Db, partnerId: string, id: string): Promise<SweepView | null> {
  if (!uuid.test(id)) return null;
  return db.sweep.findFirst({ where: { id: id.toLowerCase(), partnerId }, select: sweepSelect });
}

export interface SweepPage {
  items: SweepView[];
  nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;

/** GET /v1/sweeps: newest first by seq, below the cursor's seq, filters combined. */
export async function listSweeps(db: Db, partnerId: string, query: SweepListQuery, below: bigint | null): Promise<SweepPage> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const where: Prisma.SweepWhereInput = {
    partnerId,
    ...(below !== null && { seq: { lt: below } }),
    ...(query.status && { status: query.status }),
    ...(query.chain_id !== undefined && { chainId: query.chain_id }),
    ...(query.account && { account: checksumAddress(query.account) }),
    ...(query.hot_wallet && { hotWallet: { is: { address: checksumAddress(query.hot_wallet) } } }),
  };
  // One row more than the page tells whether another page follows.
  const rows = await db.sweep.findMany({ where, orderBy: { seq: "desc" }, take: limit + 1, select: { ...sweepSelect, seq: true } });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
}
