import type { ChainProvider } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import type { ReadBatching } from "./chain-reads";
import { readThenClaim, type ClaimPass } from "./read-then-claim";
import { claimRevocations, type RevocationClaimResult } from "./revocation-claim";
import { loadDueRevocations } from "./revocation-work";

export interface RevocationRoundDeps {
  db: Db;
  names: QueueNames;
  /** providers of the served chains */
  providers: ReadonlyMap<number, ChainProvider>;
  settings: { gasMarginBps: number; maxRevocations: number; reads: ReadBatching };
  logger: Logger;
  /** called after a claim wrote outbox messages (batch.ready, events), so the relay sends them at once */
  wrote?: () => void;
}

export type RevocationRoundResult = Exclude<RevocationClaimResult, { outcome: "unread" }> | { outcome: "nothing_due" | "not_served" | "chain_unavailable" };

/**
 * One round for one partner's revocations on one chain (its gas wallet sends them): find the due
 * ones, read their accounts' code and nonce on chain, then claim (readThenClaim).
 */
export function createRevocationRound(deps: RevocationRoundDeps): (target: { partnerId: string; chainId: number }) => Promise<RevocationRoundResult> {
  const { db, names, providers, settings } = deps;
  return async ({ partnerId, chainId }) => {
    const logger = deps.logger.child({ partnerId, chainId, round: "revocations" });
    const provider = providers.get(chainId);
    if (!provider) {
      logger.warn("revocations of a chain this batcher does not serve");
      return { outcome: "not_served" };
    }
    const work = await loadDueRevocations(db, partnerId, chainId, new Date(), settings.maxRevocations);
    if (work.outcome !== "ready") return work;

    const ctx = { db, provider, chainId, reads: settings.reads, gasMarginBps: settings.gasMarginBps, logger, noun: "revocations" };
    const accountReads = (accounts: readonly string[]) => ({ accounts: [...new Set(accounts)], tokenBalances: [] });
    const claimed = await readThenClaim(ctx, accountReads(work.revocations.map((r) => r.account)), async (chain, gasBudget, lastPass): Promise<ClaimPass<RevocationRoundResult>> => {
      const result = await claimRevocations(db, names, { partnerId, chainId, accounts: chain.accounts, gasBudget, limit: settings.maxRevocations, lastPass });
      return result.outcome === "unread" ? { unread: accountReads(result.accounts) } : { result };
    });
    if (claimed === null) return { outcome: "chain_unavailable" };
    const { result, blockNumber } = claimed;
    logResult(logger, result, blockNumber);
    if (result.outcome === "planned" && (result.batchId !== null || result.plan.rejections.length > 0)) deps.wrote?.();
    return result;
  };
}

function logResult(logger: Logger, result: RevocationRoundResult, blockNumber: number): void {
  if (result.outcome !== "planned") {
    logger.debug("revocation claim skipped", { outcome: result.outcome });
    return;
  }
  const { plan, batchId } = result;
  for (const { revocationId, reason } of plan.rejections) logger.info("revocation rejected", { revocationId, reason, blockNumber });
  for (const { revocationId, reason } of plan.waiting) logger.debug("revocation waits for a later batch", { revocationId, reason });
  if (batchId !== null) logger.info("revocation batch claimed", { batchId, revocationIds: plan.items, waiting: plan.waiting.length, blockNumber });
}
