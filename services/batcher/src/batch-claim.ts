import type { Db, Tx } from "@sweep/db";
import { toBigIntOrNull } from "@sweep/db";
import { claimIntoBatch, openBatch, rejectWork, states, unfinishedStates } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { PendingMetrics } from "@sweep/metrics";
import { partnerTariff, type ChainTariff } from "@sweep/fees";
import { getAddress } from "ethers";
import { accountKey, planBatch, type CandidateSweep, type ChainView, type Plan } from "./batch-plan";
import { batchesInFlight } from "./due-work";
import { partnerEnabled } from "./partner-enabled";
import { holdPolicySweeps, policyRulesOf } from "./policies/policy-holds";
import { sameAddress } from "./pre-send-checks";
import { authorizationClaim } from "./stored-authorization";
import { lockQueuedOf, selectDue } from "./work-waits";

export interface ClaimRequest {
  hotWalletId: string;
  /** sent batches of the hot wallet not yet settled, at most */
  maxSent: number;
  /** the chain as read just before; sweeps it does not cover wait for the next batch */
  chain: ChainView;
  gasBudget: bigint;
  /** queued sweeps considered at most */
  limit: number;
  /**
   * Whether sweeps the chain view does not cover may wait for the next batch. When false and some
   * of them may still fit the batch, the claim writes nothing and names those (outcome unread), so
   * the caller reads them and tries again: a sweep that arrived during the reads still joins this
   * batch, and a batch whose items cost less than planned before reading (fittingItems) fills up.
   */
  lastPass: boolean;
  /** the gas price the batch would pay and the chain's configured tariff: a policy's sweeps are judged at them; null holds those with rules */
  market: ClaimMarket | null;
}

export interface ClaimMarket {
  gasPrice: bigint;
  tariff: ChainTariff;
}

export type ClaimResult =
  | { outcome: "inactive" | "disabled" | "in_flight" }
  | { outcome: "unread"; sweeps: Array<{ account: string; tokenAddress: string | null }> }
  /** batchId null: every sweep was rejected or waits */
  | { outcome: "planned"; chainId: number; plan: Plan; batchId: string | null; unreadableAuthorizations: string[] };

/**
 * One transaction: lock the hot wallet (two batcher replicas never batch one hot wallet at once),
 * make sure it is active with room for a batch in flight and its partner enabled, lock the queued
 * sweeps of the addresses read in every hot wallet of the chain (two hot wallets never take one
 * address at once), lock its due sweeps (SKIP LOCKED), decide the checks and the batch, reject what
 * failed for good, and claim the rest into a Batch with its items (rejectWork and claimIntoBatch in
 * @sweep/lifecycle).
 */
export async function claimBatch(db: Db, names: QueueNames, request: ClaimRequest): Promise<ClaimResult> {
  const metrics = new PendingMetrics();
  const result = await db.$transaction((tx) => claimInTransaction(tx, names, request, metrics), { maxWait: 10_000, timeout: 60_000 });
  metrics.commit();
  return result;
}

async function claimInTransaction(tx: Tx, names: QueueNames, request: ClaimRequest, metrics: PendingMetrics): Promise<ClaimResult> {
  const { hotWalletId } = request;
  const hotWallet = await lockHotWallet(tx, hotWalletId);
  if (hotWallet?.status !== states.hotWallet.active) return { outcome: "inactive" };
  if (!(await partnerEnabled(tx, hotWallet.partnerId))) return { outcome: "disabled" };
  if (await batchesInFlight(tx, hotWalletId, request.maxSent)) return { outcome: "in_flight" };

  // Only addresses the chain was read for can be claimed: those are the ones to hold against the other hot wallets' claims.
  await lockQueuedOf(tx, "sweep", hotWallet.chainId, [...request.chain.accounts.keys()].map((key) => getAddress(key)));
  const locked = await selectDue(tx, { kind: "sweep", hotWalletId }, new Date(), request.limit, "lock");
  const ids = locked.map((row) => row.id);
  const rows = await tx.sweep.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" } });
  const unreadableAuthorizations = rows.filter((s) => s.authorization !== null && authorizationClaim(s.authorization) === null).map((s) => s.id);
  const policies = await policyRulesOf(tx, { partnerId: hotWallet.partnerId, chainId: hotWallet.chainId }, rows.filter((s) => s.createdBy === "policy").map((s) => s.token));
  const sweeps: CandidateSweep[] = rows.map((s) => ({
    id: s.id,
    account: s.account,
    tokenAddress: s.tokenAddress,
    amount: toBigIntOrNull(s.amount),
    keepOneUnit: s.keepOneUnit,
    authorization: authorizationClaim(s.authorization),
    token: s.token,
    policy: s.createdBy === "policy" ? (policies.get(s.token) ?? null) : null,
  }));
  const agreement = request.market && policies.size > 0 ? await tx.agreement.findUnique({ where: { partnerId_chainId: { partnerId: hotWallet.partnerId, chainId: hotWallet.chainId } } }) : null;

  const plan = planBatch({
    delegate: hotWallet.delegate,
    sweeps,
    chain: request.chain,
    pendingAuthorizations: await pendingAuthorizations(tx, { id: hotWalletId, chainId: hotWallet.chainId, delegate: hotWallet.delegate }, ids, [...new Set(rows.map((s) => s.account))]),
    compromised: await compromisedAddresses(tx, hotWallet, [...new Set(rows.map((s) => s.account))]),
    gasBudget: request.gasBudget,
    market: request.market && { gasPrice: request.market.gasPrice, tariff: partnerTariff(request.market.tariff, agreement) },
  });
  // Sweeps not read that may still fit the batch (the plan holds their gas; those past it wait for the next batch unread).
  const unread = new Set(plan.waiting.filter((w) => w.reason === "unread").map((w) => w.sweepId));
  if (unread.size > 0 && !request.lastPass) return { outcome: "unread", sweeps: rows.filter((s) => unread.has(s.id)).map((s) => ({ account: s.account, tokenAddress: s.tokenAddress })) };
  await holdPolicySweeps(tx, plan.waiting);

  await rejectWork(tx, names, metrics, "sweep", { partnerId: hotWallet.partnerId, chainId: hotWallet.chainId, by: "batcher" }, plan.rejections.map((r) => ({ id: r.sweepId, reason: r.reason })));

  let batchId: string | null = null;
  if (plan.items.length > 0) {
    const gasWallet = await tx.gasWallet.findUniqueOrThrow({ where: { partnerId: hotWallet.partnerId }, select: { id: true } });
    batchId = await openBatch(tx, {
      chainId: hotWallet.chainId,
      gasWalletId: gasWallet.id,
      hotWalletId,
      purpose: "sweep",
      items: { createMany: { data: plan.items.map((item, position) => ({ position, ...item })) } },
    });
    await claimIntoBatch(tx, names, metrics, "sweep", { chainId: hotWallet.chainId, batchId, ids: plan.items.map((item) => item.sweepId) });
  }
  return { outcome: "planned", chainId: hotWallet.chainId, plan, batchId, unreadableAuthorizations };
}

/**
 * Locks the hot wallet's row until the transaction ends, so that two batchers never claim for one
 * hot wallet at once. FOR NO KEY UPDATE rather than FOR UPDATE: it excludes the other batchers
 * just the same, but not the key-share lock each new sweep's foreign key takes, so the API keeps
 * inserting sweeps of this hot wallet during a claim.
 */
export async function lockHotWallet(tx: Tx, hotWalletId: string): Promise<{ status: string; delegate: string; chainId: number; partnerId: string } | undefined> {
  const [hotWallet] = await tx.$queryRaw<{ status: string; delegate: string; chainId: number; partnerId: string }[]>`
    SELECT status::text AS status, delegate, chain_id AS "chainId", partner_id::text AS "partnerId"
      FROM hot_wallets WHERE id = ${hotWalletId}::uuid FOR NO KEY UPDATE`;
  return hotWallet;
}

/** The accounts (accountKey) among `accounts` that the partner's inventory holds compromised on the hot wallet's chain. */
async function compromisedAddresses(tx: Tx, hotWallet: { partnerId: string; chainId: number }, accounts: string[]): Promise<Set<string>> {
  const rows = await tx.depositAddress.findMany({
    where: { partnerId: hotWallet.partnerId, chainId: hotWallet.chainId, address: { in: accounts }, delegation: "compromised" },
    select: { address: true },
  });
  return new Set(rows.map((row) => accountKey(row.address)));
}

/**
 * Addresses (accountKey) an authorization of this hot wallet's delegate will still come for, from
 * a sweep outside this claim: queued (not yet due, or beyond the limit, or locked elsewhere) or
 * processing (a batch that failed goes back to queued). A sweep that waits for a revocation of its
 * address requested before it does not count: that revocation waits for the earlier sweeps, so
 * earlier sweeps waiting for its authorization would all wait for good.
 */
async function pendingAuthorizations(tx: Tx, hotWallet: { id: string; chainId: number; delegate: string }, claimedIds: string[], accounts: string[]): Promise<Set<string>> {
  const others = await tx.sweep.findMany({
    where: { hotWalletId: hotWallet.id, account: { in: accounts }, id: { notIn: claimedIds }, status: { in: unfinishedStates.work } },
    select: { account: true, authorization: true, createdAt: true },
  });
  const revocations = await tx.revocation.findMany({
    where: { chainId: hotWallet.chainId, account: { in: accounts }, status: { in: unfinishedStates.work } },
    select: { account: true, createdAt: true },
  });
  const behindRevocation = (sweep: { account: string; createdAt: Date }) => revocations.some((r) => r.account === sweep.account && r.createdAt < sweep.createdAt);
  const holdsAuthorization = (stored: unknown) => {
    const claim = authorizationClaim(stored);
    return claim !== null && sameAddress(claim.address, hotWallet.delegate);
  };
  return new Set(others.filter((s) => holdsAuthorization(s.authorization) && !behindRevocation(s)).map((s) => accountKey(s.account)));
}
