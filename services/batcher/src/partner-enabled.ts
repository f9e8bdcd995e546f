import type { Prisma, Db, Tx } from "@sweep/db";

/**
 * A disabled partner's queued sweeps and revocations wait, neither claimed nor rejected, and
 * continue once it is enabled again (the due poller finds them then). Batches already claimed are
 * left to go on: work on its way to the chain is seen through.
 */
export const enabledPartner: Prisma.PartnerWhereInput = { enabled: true };

/** Whether the partner may have work claimed now; read again inside each claim's transaction. */
export async function partnerEnabled(db: Db | Tx, partnerId: string): Promise<boolean> {
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { enabled: true } });
  return partner?.enabled === true;
}
