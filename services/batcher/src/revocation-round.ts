import type { ChainProvider } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { READ_PASSES } from "./batch-round";
import { settledHead } from "./settled-head";
import { readChainSnapshot, type ReadBatching } from "./chain-reads";
import { batchGasBudget } from "./gas-budget";
import type { AccountState } from "./pre-send-checks";
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
 * ones, read their accounts' code and nonce on chain, then claim. As for sweeps, the chain is read
 * outside the claim's transaction and a node that does not answer rejects nothing.
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

    const accounts = new Map<string, AccountState>();
    let toRead = [...new Set(work.revocations.map((r) => r.account))];
    let gasBudget: bigint | undefined;
    for (let pass = 1; ; pass++) {
      const snapshot = await readChainSnapshot(provider, { accounts: toRead, tokenBalances: [] }, settings.reads, await settledHead(db, chainId)).catch((err: unknown) => {
        logger.warn("chain unavailable during the checks; nothing rejected, retried later", { error: err instanceof Error ? err.message : String(err), accounts: toRead.length });
        return null;
      });
      if (snapshot === null) return { outcome: "chain_unavailable" };
      snapshot.accounts.forEach((state, key) => accounts.set(key, state));
      gasBudget ??= batchGasBudget(snapshot.blockGasLimit, settings.gasMarginBps);

      const result = await claimRevocations(db, names, { partnerId, chainId, accounts, gasBudget, limit: settings.maxRevocations, lastPass: pass === READ_PASSES });
      if (result.outcome === "unread") {
        logger.debug("revocations arrived during the chain reads; reading them too", { accounts: result.accounts.length, pass });
        toRead = result.accounts;
        continue;
      }
      logResult(logger, result, snapshot.blockNumber);
      if (result.outcome === "planned" && (result.batchId !== null || result.plan.rejections.length > 0)) deps.wrote?.();
      return result;
    }
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
