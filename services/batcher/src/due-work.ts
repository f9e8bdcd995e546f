import type { Db, Prisma, Tx } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import { enabledPartner, partnerEnabled } from "./partner-enabled";
import { selectDue, type DueSweep } from "./work-waits";

/** Queued sweeps whose retry pause (if any) is over. */
const dueSweep = (now: Date): Prisma.SweepWhereInput => ({ status: states.sweep.queued, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] });

/**
 * A batch of the hot wallet being prepared: claimed, not yet signed and sent. One at a time:
 * sweeps that arrive meanwhile wait for the next batch, so under load batches grow by themselves.
 */
export const preparingBatch: Prisma.BatchWhereInput = { purpose: "sweep", status: states.batch.open };
/** Sent batches not yet settled: the next batch need not wait for them, up to a limit. */
export const sentBatch: Prisma.BatchWhereInput = { purpose: "sweep", status: states.batch.sent };

export type DueWork =
  | { outcome: "ready"; hotWallet: { id: string; chainId: number; partnerId: string }; sweeps: DueSweep[] }
  | { outcome: "inactive" | "disabled" | "in_flight" | "nothing_due" };

/**
 * Whether the hot wallet may claim a batch now: none being prepared, and fewer than `maxSent`
 * sent and not yet settled.
 */
export async function batchesInFlight(db: Db | Tx, hotWalletId: string, maxSent: number): Promise<boolean> {
  if (await db.batch.findFirst({ where: { hotWalletId, ...preparingBatch }, select: { id: true } })) return true;
  return (await db.batch.count({ where: { hotWalletId, ...sentBatch } })) >= maxSent;
}

/**
 * What a claim will look at, read without locks to know which addresses to read on chain: the
 * hot wallet must be active with room for a batch in flight, its partner enabled, and it must
 * have due sweeps.
 */
export async function loadDueWork(db: Db, hotWalletId: string, now: Date, limit: number, maxSent: number): Promise<DueWork> {
  const hotWallet = await db.hotWallet.findUnique({ where: { id: hotWalletId }, select: { id: true, chainId: true, status: true, partnerId: true } });
  if (hotWallet?.status !== states.hotWallet.active) return { outcome: "inactive" };
  if (!(await partnerEnabled(db, hotWallet.partnerId))) return { outcome: "disabled" };
  if (await batchesInFlight(db, hotWalletId, maxSent)) return { outcome: "in_flight" };
  const sweeps = await selectDue(db, { kind: "sweep", hotWalletId }, now, limit, "read");
  if (sweeps.length === 0) return { outcome: "nothing_due" };
  return { outcome: "ready", hotWallet: { id: hotWallet.id, chainId: hotWallet.chainId, partnerId: hotWallet.partnerId }, sweeps };
}

/** Active hot wallets of enabled partners on a chain with due sweeps and no batch being prepared: work no message may announce. */
export async function findDueHotWallets(db: Db, chainId: number, now: Date, limit = 1_000): Promise<string[]> {
  const found = await db.hotWallet.findMany({
    where: { chainId, status: states.hotWallet.active, partner: enabledPartner, sweeps: { some: dueSweep(now) }, batches: { none: preparingBatch } },
    select: { id: true },
    take: limit,
  });
  return found.map((h) => h.id);
}
