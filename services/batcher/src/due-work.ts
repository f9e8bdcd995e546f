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

export type DueWork = { outcome: "ready"; sweeps: DueSweep[] } | { outcome: "disabled" | "in_flight" | "nothing_due" };

/** The partner and chain of an active hot wallet, whose round may look for work; inactive otherwise. */
export async function hotWalletPayer(db: Db, hotWalletId: string): Promise<{ partnerId: string; chainId: number } | { outcome: "inactive" }> {
  const hotWallet = await db.hotWallet.findUnique({ where: { id: hotWalletId }, select: { chainId: true, status: true, partnerId: true } });
  return hotWallet?.status === states.hotWallet.active ? { partnerId: hotWallet.partnerId, chainId: hotWallet.chainId } : { outcome: "inactive" };
}

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
 * active hot wallet (hotWalletPayer) must have room for a batch in flight, its partner enabled,
 * and it must have due sweeps.
 */
export async function loadDueWork(db: Db, hotWallet: { id: string; partnerId: string }, now: Date, limit: number, maxSent: number): Promise<DueWork> {
  if (!(await partnerEnabled(db, hotWallet.partnerId))) return { outcome: "disabled" };
  if (await batchesInFlight(db, hotWallet.id, maxSent)) return { outcome: "in_flight" };
  const sweeps = await selectDue(db, { kind: "sweep", hotWalletId: hotWallet.id }, now, limit, "read");
  return sweeps.length === 0 ? { outcome: "nothing_due" } : { outcome: "ready", sweeps };
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
