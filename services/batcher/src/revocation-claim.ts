import type { Db, Tx } from "@sweep/db";
import { claimIntoBatch, openBatch, rejectWork } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { PendingMetrics } from "@sweep/metrics";
import { getAddress } from "ethers";
import { accountKey } from "./batch-plan";
import { partnerEnabled } from "./partner-enabled";
import type { AccountState } from "./pre-send-checks";
import { planRevocations, type RevocationPlan } from "./revocation-plan";
import { revocationBatchOpen } from "./revocation-work";
import { revocationAuthorizationNonce } from "./stored-authorization";
import { lockQueuedOf, selectDue } from "./work-waits";

export interface RevocationClaimRequest {
  partnerId: string;
  chainId: number;
  /** the accounts as read just before, by accountKey; revocations it does not cover wait */
  accounts: ReadonlyMap<string, AccountState>;
  gasBudget: bigint;
  /** queued revocations considered at most */
  limit: number;
  /**
   * Whether revocations whose account was not read may wait for the next batch. When false, the
   * claim writes nothing and names their accounts (outcome unread), so the caller reads them and
   * tries again: a revocation that arrived during the reads still joins this batch.
   */
  lastPass: boolean;
}

export type RevocationClaimResult =
  | { outcome: "disabled" | "in_flight" }
  | { outcome: "unread"; accounts: string[] }
  /** batchId null: every revocation was rejected or waits */
  | { outcome: "planned"; plan: RevocationPlan; batchId: string | null };

/**
 * One transaction: lock the partner's gas wallet (two batcher replicas never batch its revocations
 * at once), make sure its partner is enabled and no revocation batch of it on the chain is being
 * prepared, lock the queued revocations of the accounts read of every partner (two partners never
 * revoke one account at once), lock the due revocations (SKIP LOCKED), decide the checks and the
 * batch, reject what failed for good, and claim the rest into a Batch (rejectWork and
 * claimIntoBatch in @sweep/lifecycle).
 */
export async function claimRevocations(db: Db, names: QueueNames, request: RevocationClaimRequest): Promise<RevocationClaimResult> {
  const metrics = new PendingMetrics();
  const result = await db.$transaction((tx) => claimInTransaction(tx, names, request, metrics), { maxWait: 10_000, timeout: 60_000 });
  metrics.commit();
  return result;
}

async function claimInTransaction(tx: Tx, names: QueueNames, request: RevocationClaimRequest, metrics: PendingMetrics): Promise<RevocationClaimResult> {
  const { partnerId, chainId } = request;
  const gasWalletId = await lockGasWallet(tx, partnerId);
  if (gasWalletId === undefined) throw new Error(`partner ${partnerId} has no gas wallet`);
  if (!(await partnerEnabled(tx, partnerId))) return { outcome: "disabled" };
  if (await revocationBatchOpen(tx, gasWalletId, chainId)) return { outcome: "in_flight" };

  // Only accounts that were read can be claimed: those are the ones to hold against the other partners' claims.
  await lockQueuedOf(tx, "revocation", chainId, [...request.accounts.keys()].map((key) => getAddress(key)));
  const locked = await selectDue(tx, { kind: "revocation", partnerId, chainId }, new Date(), request.limit, "lock");
  const rows = await tx.revocation.findMany({ where: { id: { in: locked.map((r) => r.id) } }, orderBy: { seq: "asc" }, select: { id: true, account: true, authorization: true } });
  const unread = rows.filter((r) => !request.accounts.has(accountKey(r.account)));
  if (unread.length > 0 && !request.lastPass) return { outcome: "unread", accounts: [...new Set(unread.map((r) => r.account))] };

  const plan = planRevocations({
    revocations: rows.map((r) => ({ id: r.id, account: r.account, authorizationNonce: revocationAuthorizationNonce(r.authorization, chainId) })),
    accounts: request.accounts,
    gasBudget: request.gasBudget,
  });

  await rejectWork(tx, names, metrics, "revocation", { partnerId, chainId, by: "batcher" }, plan.rejections.map((r) => ({ id: r.revocationId, reason: r.reason })));

  let batchId: string | null = null;
  if (plan.items.length > 0) {
    batchId = await openBatch(tx, {
      chainId,
      gasWalletId,
      purpose: "revocation",
      items: { createMany: { data: plan.items.map((revocationId, position) => ({ position, revocationId, withAuthorization: true })) } },
    });
    await claimIntoBatch(tx, names, metrics, "revocation", { chainId, batchId, ids: plan.items });
  }
  return { outcome: "planned", plan, batchId };
}

/**
 * Locks the partner's gas wallet row until the transaction ends, so that two batchers never claim
 * its revocations at once (on any chain: a claim is short). FOR NO KEY UPDATE rather than FOR
 * UPDATE: the batches and transactions others insert for this gas wallet take the key-share lock
 * of their foreign key, and must not wait for a revocation claim.
 */
export async function lockGasWallet(tx: Tx, partnerId: string): Promise<string | undefined> {
  const [gasWallet] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM gas_wallets WHERE partner_id = ${partnerId}::uuid FOR NO KEY UPDATE`;
  return gasWallet?.id;
}
