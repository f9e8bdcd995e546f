import type { RevocationListQuery } from "@sweep/api-contract";
import { revocationViewSelect, type Db, type RevocationView } from "@sweep/db";
import { isUuid } from "../http/uuid";
import { revocationCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";
import { workListWhere } from "../work/work-queries";

/** GET /v1/revocations/{id}: null when the id is malformed or names another account's revocation. */
export async function findRevocation(db: Db, partnerId: string, id: string): Promise<RevocationView | null> {
  if (!isUuid(id)) return null;
  return db.revocation.findFirst({ where: { id: id.toLowerCase(), partnerId }, select: revocationViewSelect });
}

/** GET /v1/revocations: newest first by seq, below the cursor's seq, filters combined. */
export async function listRevocations(db: Db, partnerId: string, page: PageRequest<RevocationListQuery>): Promise<Page<RevocationView>> {
  const rows = await db.revocation.findMany({ where: workListWhere(partnerId, page), orderBy: { seq: "desc" }, take: page.limit + 1, select: { ...revocationViewSelect, seq: true } });
  return pageOf(rows, page.limit, revocationCursors);
}
