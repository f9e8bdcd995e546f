import { Prisma, type Db, type Tx } from "@sweep/db";
import { enabledPartner, partnerEnabled } from "./partner-enabled";

/** Queued sweeps whose retry pause (if any) is over. */
const dueSweep = (now: Date): Prisma.SweepWhereInput => ({ status: "queued", OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] });

/**
 * A batch of the hot wallet being prepared: claimed, not yet signed and sent. One at a time:
 * sweeps that arrive meanwhile wait for the next batch, so under load batches grow by themselves.
 */
export const preparingBatch: Prisma.BatchWhereInput = { purpose: "sweep", status: "open" };
/** Sent batches not yet settled: the next batch need not wait for them, up to a limit. */
export const sentBatch: Prisma.BatchWhereInput = { purpose: "sweep", status: "sent" };

export interface DueSweep {
  id: string;
  account: string;
  tokenAddress: string | null;
}

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
 * The due sweeps of a hot wallet a batch may take, oldest first: queued, their pause over, and
 * no other sweep of their address processing in any hot wallet of this chain (an address is
 * delegated to one delegate at a time; lockQueuedSweepsOf). A batch in flight changes its
 * addresses' state (balances, nonce, delegation), so their next sweeps wait for it to settle;
 * every other address reads the same on chain whether or not that batch was mined yet. A sweep
 * also waits for a revocation of its address requested before it (queued or processing): it must
 * not run on a delegation about to be removed; once the revocation settles, its own checks decide.
 */
export function selectDueSweeps(db: Db | Tx, hotWalletId: string, now: Date, limit: number, lock: "lock" | "read"): Promise<DueSweep[]> {
  const forUpdate = lock === "lock" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.sql``;
  return db.$queryRaw<DueSweep[]>`
    SELECT s.id::text AS id, s.account, s.token_address AS "tokenAddress" FROM sweeps s
     WHERE s.hot_wallet_id = ${hotWalletId}::uuid AND s.status = 'queued' AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= ${now})
       AND NOT EXISTS (SELECT 1 FROM sweeps p WHERE p.chain_id = s.chain_id AND p.account = s.account AND p.status = 'processing')
       AND NOT EXISTS (SELECT 1 FROM revocations r WHERE r.chain_id = s.chain_id AND r.account = s.account AND r.status IN ('queued', 'processing') AND r.created_at < s.created_at)
     ORDER BY s.seq LIMIT ${limit}
     ${forUpdate}`;
}

/**
 * Locks, until the transaction ends and in one order (by id), the queued sweeps of these addresses
 * on the chain in every hot wallet. An address is delegated to one delegate at a time, so its sweep
 * waits while a sweep of it is processing in any hot wallet of the chain (selectDueSweeps). Claims
 * of two hot wallets hold two different hot wallet locks, and each would find the other's sweep of
 * a shared address still queued (not yet committed) and take the address too; the chain would then
 * refuse the second batch's sweep (Unauthorized). Under this lock the later claim waits for the
 * earlier to commit and then sees its sweep processing. Only claims that share an address wait for
 * each other; the one order rules out a deadlock between them. Addresses as stored (EIP-55).
 */
export async function lockQueuedSweepsOf(tx: Tx, chainId: number, accounts: readonly string[]): Promise<void> {
  if (accounts.length === 0) return;
  await tx.$executeRaw`SELECT 1 FROM sweeps WHERE chain_id = ${chainId} AND account = ANY(${[...accounts]}::text[]) AND status = 'queued' ORDER BY id FOR UPDATE`;
}

/**
 * What a claim will look at, read without locks to know which addresses to read on chain: the
 * hot wallet must be active with room for a batch in flight, its partner enabled, and it must
 * have due sweeps.
 */
export async function loadDueWork(db: Db, hotWalletId: string, now: Date, limit: number, maxSent: number): Promise<DueWork> {
  const hotWallet = await db.hotWallet.findUnique({ where: { id: hotWalletId }, select: { id: true, chainId: true, status: true, partnerId: true } });
  if (hotWallet?.status !== "active") return { outcome: "inactive" };
  if (!(await partnerEnabled(db, hotWallet.partnerId))) return { outcome: "disabled" };
  if (await batchesInFlight(db, hotWalletId, maxSent)) return { outcome: "in_flight" };
  const sweeps = await selectDueSweeps(db, hotWalletId, now, limit, "read");
  if (sweeps.length === 0) return { outcome: "nothing_due" };
  return { outcome: "ready", hotWallet: { id: hotWallet.id, chainId: hotWallet.chainId, partnerId: hotWallet.partnerId }, sweeps };
}

/** Active hot wallets of enabled partners on a chain with due sweeps and no batch being prepared: work no message may announce. */
export async function findDueHotWallets(db: Db, chainId: number, now: Date, limit = 1_000): Promise<string[]> {
  const found = await db.hotWallet.findMany({
    where: { chainId, status: "active", partner: enabledPartner, sweeps: { some: dueSweep(now) }, batches: { none: preparingBatch } },
    select: { id: true },
    take: limit,
  });
  return found.map((h) => h.id);
}
