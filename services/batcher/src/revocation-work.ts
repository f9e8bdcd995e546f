import { Prisma, type Db, type Tx } from "@sweep/db";
import { enabledPartner, partnerEnabled } from "./partner-enabled";

/** A revocation batch of the gas wallet on the chain being prepared: one at a time, as for a hot wallet's sweeps. */
const preparingRevocationBatch = (chainId: number): Prisma.BatchWhereInput => ({ chainId, purpose: "revocation", status: "open" });

export interface DueRevocation {
  id: string;
  account: string;
}

export type DueRevocations = { outcome: "ready"; revocations: DueRevocation[] } | { outcome: "disabled" | "in_flight" | "nothing_due" };

/** Whether a revocation batch of this gas wallet on this chain is being prepared. */
export async function revocationBatchOpen(db: Db | Tx, gasWalletId: string, chainId: number): Promise<boolean> {
  return (await db.batch.findFirst({ where: { gasWalletId, ...preparingRevocationBatch(chainId) }, select: { id: true } })) !== null;
}

/**
 * The due revocations of a partner on a chain a batch may take, oldest first: queued, their pause
 * over, and not waiting. A revocation waits for the sweeps of its account requested at or before
 * it (queued or processing), which need the delegation it removes; and for any sweep or other
 * revocation of its account in a batch not yet settled, which changes the account's nonce and
 * code the checks read. Accounts are stored EIP-55 in both tables, so they compare as stored.
 */
export function selectDueRevocations(db: Db | Tx, partnerId: string, chainId: number, now: Date, limit: number, lock: "lock" | "read"): Promise<DueRevocation[]> {
  const forUpdate = lock === "lock" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.sql``;
  return db.$queryRaw<DueRevocation[]>`
    SELECT r.id::text AS id, r.account FROM revocations r
     WHERE r.partner_id = ${partnerId}::uuid AND r.chain_id = ${chainId} AND r.status = 'queued' AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ${now})
       AND NOT EXISTS (SELECT 1 FROM sweeps s WHERE s.chain_id = r.chain_id AND s.account = r.account
                          AND (s.status = 'processing' OR (s.status = 'queued' AND s.created_at <= r.created_at)))
       AND NOT EXISTS (SELECT 1 FROM revocations p WHERE p.chain_id = r.chain_id AND p.account = r.account AND p.status = 'processing')
     ORDER BY r.seq LIMIT ${limit}
     ${forUpdate}`;
}

/**
 * Locks, until the transaction ends and in one order (by id), the queued revocations of these
 * accounts on the chain of every partner, as lockQueuedSweepsOf does for sweeps: a revocation waits
 * while another of its account is processing, and two partners' claims (under two gas wallet locks)
 * would otherwise both send one, the second then skipped by the chain (not_applied). Accounts as
 * stored (EIP-55).
 */
export async function lockQueuedRevocationsOf(tx: Tx, chainId: number, accounts: readonly string[]): Promise<void> {
  if (accounts.length === 0) return;
  await tx.$executeRaw`SELECT 1 FROM revocations WHERE chain_id = ${chainId} AND account = ANY(${[...accounts]}::text[]) AND status = 'queued' ORDER BY id FOR UPDATE`;
}

/** What a revocation claim will look at, read without locks to know which accounts to read on chain; nothing while the partner is disabled. */
export async function loadDueRevocations(db: Db, partnerId: string, chainId: number, now: Date, limit: number): Promise<DueRevocations> {
  if (!(await partnerEnabled(db, partnerId))) return { outcome: "disabled" };
  const gasWallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId }, select: { id: true } });
  if (await revocationBatchOpen(db, gasWallet.id, chainId)) return { outcome: "in_flight" };
  const revocations = await selectDueRevocations(db, partnerId, chainId, now, limit, "read");
  return revocations.length === 0 ? { outcome: "nothing_due" } : { outcome: "ready", revocations };
}

/** Enabled partners with due revocations on a chain and no revocation batch there being prepared: work no message may announce. */
export async function findDueRevocationPartners(db: Db, chainId: number, now: Date, limit = 1_000): Promise<string[]> {
  const found = await db.partner.findMany({
    where: {
      ...enabledPartner,
      revocations: { some: { chainId, status: "queued", OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] } },
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
