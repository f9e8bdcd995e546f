import type { ChainProvider } from "@sweep/rpc";
import type { FeeCeiling } from "@sweep/fees";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { claimBatch, type ClaimResult } from "./batch-claim";
import type { ChainReads, ReadBatching } from "./chain-reads";
import { loadDueWork } from "./due-work";
import { gasPriceGate } from "./gas-price-hold";
import { readThenClaim, type ClaimPass } from "./read-then-claim";

export interface BatchRoundDeps {
  db: Db;
  names: QueueNames;
  /** providers of the served chains */
  providers: ReadonlyMap<number, ChainProvider>;
  /** the served chains' fee ceilings: while the base fee keeps a batch above its own, nothing is claimed */
  feeCeilings: ReadonlyMap<number, FeeCeiling>;
  /** `TX_FEE_CAP_<id>` of the served chains (absent: one coin) */
  txFeeCaps?: ReadonlyMap<number, bigint>;
  settings: { gasMarginBps: number; maxSweeps: number; maxSent: number; reads: ReadBatching };
  logger: Logger;
  /** called after a claim wrote outbox messages (batch.ready, events), so the relay sends them at once */
  wrote?: () => void;
}

export type RoundResult = Exclude<ClaimResult, { outcome: "unread" }> | { outcome: "nothing_due" | "not_served" | "chain_unavailable" | "waiting_for_gas_price" };

/**
 * One round for one hot wallet: find its due sweeps, read their addresses on chain, then claim
 * (readThenClaim).
 */
export function createBatchRound(deps: BatchRoundDeps): (hotWalletId: string) => Promise<RoundResult> {
  const { db, names, providers, settings } = deps;
  return async (hotWalletId) => {
    const work = await loadDueWork(db, hotWalletId, new Date(), settings.maxSweeps, settings.maxSent);
    if (work.outcome !== "ready") return work;
    const { chainId, partnerId } = work.hotWallet;
    const logger = deps.logger.child({ hotWalletId, chainId, partnerId });
    const provider = providers.get(chainId);
    const chainCeiling = deps.feeCeilings.get(chainId);
    if (!provider || !chainCeiling) {
      logger.warn("hot wallet of a chain this batcher does not serve");
      return { outcome: "not_served" };
    }
    const gate = await gasPriceGate(db, provider, { kind: "sweep", partnerId, chainId, chainCeiling, ids: work.sweeps.map((s) => s.id) }, logger);
    if (gate !== "go") return { outcome: gate };

    const ctx = { db, provider, chainId, reads: settings.reads, gasMarginBps: settings.gasMarginBps, txFeeCap: deps.txFeeCaps?.get(chainId), logger, noun: "sweeps" };
    const claimed = await readThenClaim(ctx, chainReads(work.sweeps), async (chain, gasBudget, lastPass): Promise<ClaimPass<RoundResult>> => {
      const result = await claimBatch(db, names, { hotWalletId, maxSent: settings.maxSent, chain, gasBudget, limit: settings.maxSweeps, lastPass });
      return result.outcome === "unread" ? { unread: chainReads(result.sweeps) } : { result };
    });
    if (claimed === null) return { outcome: "chain_unavailable" };
    const { result, blockNumber } = claimed;
    logResult(logger, result, blockNumber);
    if (result.outcome === "planned" && (result.batchId !== null || result.plan.rejections.length > 0)) deps.wrote?.();
    return result;
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
