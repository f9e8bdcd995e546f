import type { Db, Prisma } from "@sweep/db";

/** Queued sweeps whose retry pause (if any) is over. */
const dueSweep = (now: Date): Prisma.SweepWhereInput => ({ status: "queued", OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] });

/** Batches of a hot wallet that are still in flight: claimed, or sent and not yet settled. */
export const inFlightBatch: Prisma.BatchWhereInput = { purpose: "sweep", status: { in: ["open", "sent"] } };

const dueSweepFields = { id: true, account: true, tokenAddress: true } satisfies Prisma.SweepSelect;
type DueSweep = Prisma.SweepGetPayload<{ select: typeof dueSweepFields }>;

export type DueWork =
  | { outcome: "ready"; hotWallet: { id: string; chainId: number }; sweeps: DueSweep[] }
  | { outcome: "inactive" | "in_flight" | "nothing_due" };

/**
 * What a claim will look at, read without locks to know which addresses to read on chain: the
 * hot wallet must be active with no batch in flight (a batch in flight changes the addresses'
 * state; its sweeps' successors wait for it to settle), and it must have due sweeps.
 */
export async function loadDueWork(db: Db, hotWalletId: string, now: Date, limit: number): Promise<DueWork> {
  const hotWallet = await db.hotWallet.findUnique({ where: { id: hotWalletId }, select: { id: true, chainId: true, status: true } });
  if (hotWallet?.status !== "active") return { outcome: "inactive" };
  if (await db.batch.findFirst({ where: { hotWalletId, ...inFlightBatch }, select: { id: true } })) return { outcome: "in_flight" };
  const sweeps = await db.sweep.findMany({ where: { hotWalletId, ...dueSweep(now) }, orderBy: { seq: "asc" }, take: limit, select: dueSweepFields });
  if (sweeps.length === 0) return { outcome: "nothing_due" };
  return { outcome: "ready", hotWallet: { id: hotWallet.id, chainId: hotWallet.chainId }, sweeps };
}

/** Active hot wallets of a chain with due sweeps and no batch in flight: work no message may announce. */
export async function findDueHotWallets(db: Db, chainId: number, now: Date, limit = 1_000): Promise<string[]> {
  const found = await db.hotWallet.findMany({
    where: { chainId, status: "active", sweeps: { some: dueSweep(now) }, batches: { none: inFlightBatch } },
    select: { id: true },
    take: limit,
  });
  return found.map((h) => h.id);
}
