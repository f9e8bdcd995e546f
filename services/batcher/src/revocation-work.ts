import type { Db, Prisma, Tx } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import { enabledPartner, partnerEnabled } from "./partner-enabled";
import { selectDue, type DueItem } from "./work-waits";

/** A revocation batch of the gas wallet on the chain being prepared: one at a time, as for a hot wallet's sweeps. */
const preparingRevocationBatch = (chainId: number): Prisma.BatchWhereInput => ({ chainId, purpose: "revocation", status: states.batch.open });

export type DueRevocations = { outcome: "ready"; revocations: DueItem[] } | { outcome: "disabled" | "in_flight" | "nothing_due" };

/** Whether a revocation batch of this gas wallet on this chain is being prepared. */
export async function revocationBatchOpen(db: Db | Tx, gasWalletId: string, chainId: number): Promise<boolean> {
  return (await db.batch.findFirst({ where: { gasWalletId, ...preparingRevocationBatch(chainId) }, select: { id: true } })) !== null;
}

/** What a revocation claim will look at, read without locks to know which accounts to read on chain; nothing while the partner is disabled. */
export async function loadDueRevocations(db: Db, partnerId: string, chainId: number, now: Date, limit: number): Promise<DueRevocations> {
  if (!(await partnerEnabled(db, partnerId))) return { outcome: "disabled" };
  const gasWallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId }, select: { id: true } });
  if (await revocationBatchOpen(db, gasWallet.id, chainId)) return { outcome: "in_flight" };
  const revocations = await selectDue(db, { kind: "revocation", partnerId, chainId }, now, limit, "read");
  return revocations.length === 0 ? { outcome: "nothing_due" } : { outcome: "ready", revocations };
}

/** Enabled partners with due revocations on a chain and no revocation batch there being prepared: work no message may announce. */
export async function findDueRevocationPartners(db: Db, chainId: number, now: Date, limit = 1_000): Promise<string[]> {
  const found = await db.partner.findMany({
    where: {
      ...enabledPartner,
      revocations: { some: { chainId, status: states.revocation.queued, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] } },
      gasWallet: { is: { batches: { none: preparingRevocationBatch(chainId) } } },
    },
    select: { id: true },
    take: limit,
  });
  return found.map((p) => p.id);
}

/** The partner and chain whose revocation round takes this revocation; null when there is no such revocation. */
export function revocationOwner(db: Db, revocationId: string): Promise<{ partnerId: string; chainId: number } | null> {
  return db.revocation.findUnique({ where: { id: revocationId }, select: { partnerId: true, chainId: true } });
}
