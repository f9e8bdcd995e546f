import type { ChainProvider } from "@sweep/chain";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { claimBatch, type ClaimResult } from "./batch-claim";
import type { ChainView } from "./batch-plan";
import { settledHead } from "./settled-head";
import { readChainSnapshot, type ChainReads, type ReadBatching } from "./chain-reads";
import { loadDueWork } from "./due-work";
import { batchGasBudget } from "./gas-budget";
import type { AccountState } from "./pre-send-checks";

export interface BatchRoundDeps {
  db: Db;
  names: QueueNames;
  /** providers of the served chains */
  providers: ReadonlyMap<number, ChainProvider>;
  settings: { gasMarginBps: number; maxSweeps: number; maxSent: number; reads: ReadBatching };
  logger: Logger;
  /** called after a claim wrote outbox messages (batch.ready, events), so the relay sends them at once */
  wrote?: () => void;
}

export type RoundResult = Exclude<ClaimResult, { outcome: "unread" }> | { outcome: "nothing_due" | "not_served" | "chain_unavailable" };

/**
 * Claims that find sweeps (or revocations) which arrived during the chain reads read those too and
 * try again, this many times at most; then the latecomers wait for the next batch.
 */
export const READ_PASSES = 3;

/**
 * One round for one hot wallet: find its due sweeps, read their addresses on chain, then claim.
 * The chain is read outside the claim's transaction so no lock waits on a node; the claim
 * re-checks everything it depends on. A node that does not answer rejects nothing: the round
 * ends and the poll tries again.
 */
export function createBatchRound(deps: BatchRoundDeps): (hotWalletId: string) => Promise<RoundResult> {
  const { db, names, providers, settings } = deps;
  return async (hotWalletId) => {
    const work = await loadDueWork(db, hotWalletId, new Date(), settings.maxSweeps, settings.maxSent);
    if (work.outcome !== "ready") return work;
    const { chainId, partnerId } = work.hotWallet;
    const logger = deps.logger.child({ hotWalletId, chainId, partnerId });
    const provider = providers.get(chainId);
    if (!provider) {
      logger.warn("hot wallet of a chain this batcher does not serve");
      return { outcome: "not_served" };
    }

    const view = { accounts: new Map<string, AccountState>(), tokenBalances: new Map<string, bigint>() } satisfies ChainView;
    let toRead: ReadonlyArray<{ account: string; tokenAddress: string | null }> = work.sweeps;
    let gasBudget: bigint | undefined;
    for (let pass = 1; ; pass++) {
      const snapshot = await readChainSnapshot(provider, chainReads(toRead), settings.reads, await settledHead(db, chainId)).catch((err: unknown) => {
        logger.warn("chain unavailable during the checks; nothing rejected, retried later", { error: err instanceof Error ? err.message : String(err), sweeps: toRead.length });
        return null;
      });
      if (snapshot === null) return { outcome: "chain_unavailable" };
      snapshot.accounts.forEach((state, key) => view.accounts.set(key, state));
      snapshot.tokenBalances.forEach((balance, key) => view.tokenBalances.set(key, balance));
      gasBudget ??= batchGasBudget(snapshot.blockGasLimit, settings.gasMarginBps);

      const result = await claimBatch(db, names, { hotWalletId, maxSent: settings.maxSent, chain: view, gasBudget, limit: settings.maxSweeps, lastPass: pass === READ_PASSES });
      if (result.outcome === "unread") {
        logger.debug("sweeps arrived during the chain reads; reading them too", { sweeps: result.sweeps.length, pass });
        toRead = result.sweeps;
        continue;
      }
      logResult(logger, result, snapshot.blockNumber);
      if (result.outcome === "planned" && (result.batchId !== null || result.plan.rejections.length > 0)) deps.wrote?.();
      return result;
    }
  };
}

function chainReads(sweeps: ReadonlyArray<{ account: string; tokenAddress: string | null }>): ChainReads {
  const tokenBalances = new Map(sweeps.flatMap((s) => (s.tokenAddress === null ? [] : [[`${s.account}:${s.tokenAddress}`, { account: s.account, token: s.tokenAddress }]])));
  return { accounts: [...new Set(sweeps.map((s) => s.account))], tokenBalances: [...tokenBalances.values()] };
}

function logResult(logger: Logger, result: RoundResult, blockNumber: number): void {
  if (result.outcome !== "planned") {
    logger.debug("claim skipped", { outcome: result.outcome });
    return;
  }
  const { plan, batchId } = result;
  for (const sweepId of result.unreadableAuthorizations) logger.error("stored authorization unreadable; treated as absent", { sweepId });
  for (const { sweepId, reason } of plan.rejections) logger.info("sweep rejected", { sweepId, reason, blockNumber });
  for (const { sweepId, reason } of plan.waiting) logger.debug("sweep waits for a later batch", { sweepId, reason });
  if (batchId !== null) {
    plan.items.forEach((item, position) => logger.debug("sweep claimed", { sweepId: item.sweepId, batchId, position, kind: item.kind, withAuthorization: item.withAuthorization }));
    logger.info("batch claimed", { batchId, items: plan.items.length, sweepIds: plan.items.map((i) => i.sweepId), waiting: plan.waiting.length, blockNumber });
  }
}
