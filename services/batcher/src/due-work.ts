import type { Db, Prisma, Tx } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import { enabledPartner, partnerEnabled } from "./partner-enabled";
import { nextBatchRoom, type BatchesUnderWay } from "./batch-room";
import { selectDue, type DueSweep } from "./work-waits";

/** Queued sweeps whose retry pause (if any) is over. */
const dueSweep = (now: Date): Prisma.SweepWhereInput => ({ status: states.sweep.queued, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] });

/**
 * A batch of the hot wallet being prepared: claimed, not yet signed and sent. One at a time:
 * sweeps that arrive meanwhile wait for the next batch, so under load batches grow by themselves.
 */
export const preparingBatch: Prisma.BatchWhereInput = { purpose: "sweep", status: states.batch.open };

/** `afterSentMs`: a batch is being prepared; claim once it is sent, waiting this long at most (null: claim now). */
export type DueWork = { outcome: "ready"; sweeps: DueSweep[]; afterSentMs: number | null } | { outcome: "disabled" | "in_flight" | "nothing_due" };

/** How often a round that read ahead looks whether the batch being prepared was sent. */
const SENT_POLL_MS = 25;

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
  // The loader's rule (nextBatchRoom) without reading ahead.
  return nextBatchRoom(await batchesUnderWay(db, hotWalletId), maxSent, 0).room !== "now";
}

/**
 * What a claim will look at, read without locks to know which addresses to read on chain: the
 * active hot wallet (hotWalletPayer) must have room for a batch in flight, now or once the batch
 * being prepared is sent (nextBatchRoom: the round reads ahead, `readAheadMs` 0 never), its partner
 * enabled, and it must have due sweeps. Sweeps of the batch being prepared are processing, so none
 * of them is read ahead.
 */
export async function loadDueWork(db: Db, hotWallet: { id: string; partnerId: string }, now: Date, limit: number, maxSent: number, readAheadMs = 0): Promise<DueWork> {
  if (!(await partnerEnabled(db, hotWallet.partnerId))) return { outcome: "disabled" };
  const room = nextBatchRoom(await batchesUnderWay(db, hotWallet.id), maxSent, readAheadMs);
  if (room.room === "none") return { outcome: "in_flight" };
  const sweeps = await selectDue(db, { kind: "sweep", hotWalletId: hotWallet.id }, now, limit, "read");
  return sweeps.length === 0 ? { outcome: "nothing_due" } : { outcome: "ready", sweeps, afterSentMs: room.room === "once_sent" ? room.waitMs : null };
}

async function batchesUnderWay(db: Db | Tx, hotWalletId: string): Promise<BatchesUnderWay> {
  const [row] = await db.$queryRaw<Array<{ preparingAgeMs: number | null; sent: number }>>`
    SELECT (SELECT (extract(epoch FROM now() - min(created_at)) * 1000)::float8 FROM batches
             WHERE hot_wallet_id = ${hotWalletId}::uuid AND purpose = 'sweep' AND status = ${states.batch.open}::"BatchStatus") AS "preparingAgeMs",
           (SELECT count(*)::int FROM batches
             WHERE hot_wallet_id = ${hotWalletId}::uuid AND purpose = 'sweep' AND status = ${states.batch.sent}::"BatchStatus") AS sent`;
  return row!;
}

/**
 * Waits until the hot wallet has no batch being prepared, or `maxMs` passed: a round that read ahead
 * claims as soon as the sender sent the batch before. The claim checks again under its lock.
 */
export async function untilSent(db: Db, hotWalletId: string, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  while ((await db.batch.findFirst({ where: { hotWalletId, ...preparingBatch }, select: { id: true } })) !== null && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, SENT_POLL_MS));
  }
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
