import type { SweepListQuery } from "@sweep/api-contract";
import { sweepViewSelect, type Db, type Prisma, type SweepView } from "@sweep/db";
import { checksumAddress } from "../chains";
import { isUuid } from "../http/uuid";
import { sweepCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";
import { workListWhere } from "../work/work-queries";

/** GET /v1/sweeps/{id}: null when the id is malformed or names another account's sweep. */
export async function findSweep(db: Db, partnerId: string, id: string): Promise<SweepView | null> {
  if (!isUuid(id)) return null;
  return db.sweep.findFirst({ where: { id: id.toLowerCase(), partnerId }, select: sweepViewSelect });
}

/** GET /v1/sweeps: newest first by seq, below the cursor's seq, filters combined. */
export async function listSweeps(db: Db, partnerId: string, page: PageRequest<SweepListQuery>): Promise<Page<SweepView>> {
  const { hot_wallet, external_id, tx_hash } = page.query;
  const where: Prisma.SweepWhereInput = {
    ...workListWhere(partnerId, page),
    ...(hot_wallet && { hotWallet: { is: { address: checksumAddress(hot_wallet) } } }),
    ...(external_id !== undefined && { externalId: external_id }),
    // Stored as the node gave it: lower-case hex.
    ...(tx_hash !== undefined && { txHash: tx_hash.toLowerCase() }),
  };
  const rows = await db.sweep.findMany({ where, orderBy: { seq: "desc" }, take: page.limit + 1, select: { ...sweepViewSelect, seq: true } });
  return pageOf(rows, page.limit, sweepCursors);
}
