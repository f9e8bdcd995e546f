import type { ChainProvider } from "@sweep/rpc";
import type { FeeCeiling } from "@sweep/fees";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import type { ReadBatching } from "./chain-reads";
import { gasPriceGate } from "./gas-price-hold";
import { readThenClaim, type ClaimPass } from "./read-then-claim";
import { claimRevocations, type RevocationClaimResult } from "./revocation-claim";
import { loadDueRevocations } from "./revocation-work";

export interface RevocationRoundDeps {
  db: Db;
  names: QueueNames;
  /** providers of the served chains */
  providers: ReadonlyMap<number, ChainProvider>;
  /** the served chains' fee ceilings: while the base fee keeps a batch above its own, nothing is claimed */
  feeCeilings: ReadonlyMap<number, FeeCeiling>;
  /** `TX_FEE_CAP_<id>` of the served chains (absent: one coin) */
  txFeeCaps?: ReadonlyMap<number, bigint>;
  settings: { gasMarginBps: number; maxRevocations: number; reads: ReadBatching };
  logger: Logger;
  /** called after a claim wrote outbox messages (batch.ready, events), so the relay sends them at once */
  wrote?: () => void;
}

export type RevocationRoundResult = Exclude<RevocationClaimResult, { outcome: "unread" }> | { outcome: "nothing_due" | "not_served" | "chain_unavailable" | "waiting_for_gas_price" };

/**
 * One round for one partner's revocations on one chain (its gas wallet sends them): find the due
 * ones, read their accounts' code and nonce on chain, then claim (readThenClaim).
 */
export function createRevocationRound(deps: RevocationRoundDeps): (target: { partnerId: string; chainId: number }) => Promise<RevocationRoundResult> {
  const { db, names, providers, settings } = deps;
  return async ({ partnerId, chainId }) => {
    const logger = deps.logger.child({ partnerId, chainId, round: "revocations" });
    const provider = providers.get(chainId);
    const chainCeiling = deps.feeCeilings.get(chainId);
    if (!provider || !chainCeiling) {
      logger.warn("revocations of a chain this batcher does not serve");
      return { outcome: "not_served" };
    }
    const work = await loadDueRevocations(db, partnerId, chainId, new Date(), settings.maxRevocations);
    if (work.outcome !== "ready") return work;
    const gate = await gasPriceGate(db, provider, { kind: "revocation", partnerId, chainId, chainCeiling, ids: work.revocations.map((r) => r.id) }, logger);
    if (gate !== "go") return { outcome: gate };

    const ctx = { db, provider, chainId, reads: settings.reads, gasMarginBps: settings.gasMarginBps, txFeeCap: deps.txFeeCaps?.get(chainId), logger, noun: "revocations" };
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
