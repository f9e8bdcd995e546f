import type { DepositAddressListQuery } from "@sweep/api-contract";
import { depositAddressViewSelect, type Db, type DepositAddressView, type Prisma } from "@sweep/db";
import { checksumAddress } from "../chains";
import { depositAddressCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";

/** GET /v1/deposit-addresses: newest first by seq, below the cursor's seq, filters combined. */
export async function listDepositAddresses(db: Db, partnerId: string, page: PageRequest<DepositAddressListQuery>): Promise<Page<DepositAddressView>> {
  const { query } = page;
  const where: Prisma.DepositAddressWhereInput = {
    partnerId,
    ...(page.below !== null ? { seq: { lt: page.below } } : {}),
    ...(query.chain_id !== undefined ? { chainId: query.chain_id } : {}),
    ...(query.delegation !== undefined ? { delegation: query.delegation } : {}),
    ...(query.address !== undefined ? { address: checksumAddress(query.address) } : {}),
  };
  const rows = await db.depositAddress.findMany({ where, orderBy: { seq: "desc" }, take: page.limit + 1, select: { ...depositAddressViewSelect, seq: true } });
  return pageOf(rows, page.limit, depositAddressCursors);
}
