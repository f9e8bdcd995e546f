import { Prisma, type Db, type Tx } from "@sweep/db";
import { states, unfinishedStates, type WorkKind } from "@sweep/lifecycle";

/** The queued work a claim may take, of one owner: a hot wallet's sweeps, or a partner's revocations on a chain. */
export type WorkOwner = { kind: "sweep"; hotWalletId: string } | { kind: "revocation"; partnerId: string; chainId: number };

export interface DueItem {
  id: string;
  account: string;
}
export interface DueSweep extends DueItem {
  /** null for the native coin */
  tokenAddress: string | null;
  /** made by a sweep policy, whose rules the claim judges at the batch's gas price */
  byPolicy: boolean;
  /** sent with an authorization, which its item may carry (the most gas it can cost) */
  withAuthorization: boolean;
}
type DueOf<K extends WorkKind> = K extends "sweep" ? DueSweep : DueItem;

interface DueRules {
  table: Prisma.Sql;
  /** what the batcher reads beside the id and account */
  columns: Prisma.Sql;
  /**
   * Besides its retry pause, what queued work `w` waits for: other work of its address whose
   * outcome changes what the checks read or needs what `w` would change. The wakes of
   * @sweep/lifecycle (work-kinds.ts) wake it when those end.
   */
  waits: Prisma.Sql;
}

/** Accounts are stored EIP-55 in both tables, so they compare as stored. */
const dueRules: Record<WorkKind, DueRules> = {
  // An address is delegated to one delegate at a time, and a batch in flight changes its state
  // (balances, nonce, delegation): its next sweep waits while a sweep of it is processing in any hot
  // wallet of the chain; every other address reads the same whether or not that batch was mined
  // yet. A sweep also waits for a revocation of its address requested before it: it must not run on
  // a delegation about to be removed; once the revocation settles, its own checks decide.
  sweep: {
    table: Prisma.raw("sweeps"),
    columns: Prisma.sql`, w.token_address AS "tokenAddress", w.created_by = 'policy' AS "byPolicy", w."authorization" IS NOT NULL AS "withAuthorization"`,
    waits: Prisma.sql`
      NOT EXISTS (SELECT 1 FROM sweeps p WHERE p.chain_id = w.chain_id AND p.account = w.account AND p.status = ${states.sweep.processing}::"WorkStatus")
      AND NOT EXISTS (SELECT 1 FROM revocations r WHERE r.chain_id = w.chain_id AND r.account = w.account AND r.status = ANY(${unfinishedStates.work}::"WorkStatus"[]) AND r.created_at < w.created_at)`,
  },
  // A revocation waits for the sweeps of its account requested at or before it, which need the
  // delegation it removes, and for any sweep or other revocation of its account in a batch not yet
  // settled, which changes the account's nonce and code the checks read.
  revocation: {
    table: Prisma.raw("revocations"),
    columns: Prisma.empty,
    waits: Prisma.sql`
      NOT EXISTS (SELECT 1 FROM sweeps s WHERE s.chain_id = w.chain_id AND s.account = w.account
                     AND (s.status = ${states.sweep.processing}::"WorkStatus" OR (s.status = ${states.sweep.queued}::"WorkStatus" AND s.created_at <= w.created_at)))
      AND NOT EXISTS (SELECT 1 FROM revocations p WHERE p.chain_id = w.chain_id AND p.account = w.account AND p.status = ${states.sweep.processing}::"WorkStatus")`,
  },
};

const ownedBy = (owner: WorkOwner): Prisma.Sql =>
  owner.kind === "sweep" ? Prisma.sql`w.hot_wallet_id = ${owner.hotWalletId}::uuid` : Prisma.sql`w.partner_id = ${owner.partnerId}::uuid AND w.chain_id = ${owner.chainId}`;

/**
 * The owner's due work a batch may take, oldest first: queued, its pause over, and waiting for
 * nothing. `lock` takes the rows for a claim (SKIP LOCKED: another claim's rows are left to it).
 */
export function selectDue<K extends WorkKind>(db: Db | Tx, owner: WorkOwner & { kind: K }, now: Date, limit: number, lock: "lock" | "read"): Promise<Array<DueOf<K>>> {
  const rules = dueRules[owner.kind];
  const forUpdate = lock === "lock" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty;
  return db.$queryRaw<Array<DueOf<K>>>`
    SELECT w.id::text AS id, w.account ${rules.columns} FROM ${rules.table} w
     WHERE ${ownedBy(owner)} AND w.status = ${states.sweep.queued}::"WorkStatus" AND (w.next_attempt_at IS NULL OR w.next_attempt_at <= ${now})
       AND ${rules.waits}
     ORDER BY w.seq LIMIT ${limit}
     ${forUpdate}`;
}

/**
 * Locks, until the transaction ends and in one order (by id), the queued work of these addresses on
 * the chain, of every owner. Work waits while other work of its address is processing anywhere on
 * the chain (selectDue), but two claims hold two different owners' locks, and each would find the
 * other's work of a shared address still queued (not yet committed) and take the address too: the
 * chain would then refuse the second batch's sweep (Unauthorized) or skip its revocation
 * (not_applied). Under this lock the later claim waits for the earlier to commit and then sees its
 * work processing. Only claims that share an address wait for each other; the one order rules out
 * a deadlock between them. Addresses as stored (EIP-55).
 */
export async function lockQueuedOf(tx: Tx, kind: WorkKind, chainId: number, accounts: readonly string[]): Promise<void> {
  if (accounts.length === 0) return;
  await tx.$executeRaw`SELECT 1 FROM ${dueRules[kind].table} WHERE chain_id = ${chainId} AND account = ANY(${[...accounts]}::text[]) AND status = ${states.sweep.queued}::"WorkStatus" ORDER BY id FOR UPDATE`;
}
