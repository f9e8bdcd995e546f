import type { RevocationListQuery } from "@sweep/api-contract";
import { revocationViewSelect, type Db, type Prisma, type RevocationView } from "@sweep/db";
import { checksumAddress } from "../chains";
import { isUuid } from "../http/uuid";
import { revocationCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";

/** GET /v1/revocations/{id}: null when the id is malformed or names another account's revocation. */
export async function findRevocation(db: Db, partnerId: string, id: string): Promise<RevocationView | null> {
  if (!isUuid(id)) return null;
  return db.revocation.findFirst({ where: { id: id.toLowerCase(), partnerId }, select: revocationViewSelect });
}

/** GET /v1/revocations: newest first by seq, below the cursor's seq, filters combined. */
export async function listRevocations(db: Db, partnerId: string, { query, below, limit }: PageRequest<RevocationListQuery>): Promise<Page<RevocationView>> {
  const where: Prisma.RevocationWhereInput = {
    partnerId,
    ...(below !== null && { seq: { lt: below } }),
    ...(query.status && { status: query.status }),
    ...(query.chain_id !== undefined && { chainId: query.chain_id }),
    ...(query.account && { account: checksumAddress(query.account) }),
  };
  const rows = await db.revocation.findMany({ where, orderBy: { seq: "desc" }, take: limit + 1, select: { ...revocationViewSelect, seq: true } });
  return pageOf(rows, limit, revocationCursors);
}
