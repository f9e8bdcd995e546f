import type { ChainProvider } from "@sweep/rpc";
import { offeredTip, type ChainTariff, type FeeCeiling } from "@sweep/fees";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { WorkKind } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import type { ClaimMarket } from "./batch-claim";
import type { ReadBatching } from "./chain-reads";
import { gasPriceGate } from "./gas-price-hold";
import { readThenClaim } from "./read-then-claim";
import { roundKinds, type ClaimedOf, type PlannedOf, type RoundRules, type RoundTimes, type SettingsOf, type TargetOf } from "./round-kinds";

export interface WorkRoundDeps<K extends WorkKind> {
  db: Db;
  names: QueueNames;
  /** providers of the served chains */
  providers: ReadonlyMap<number, ChainProvider>;
  /** the served chains' fee ceilings: while the base fee keeps a batch above its own, nothing is claimed */
  feeCeilings: ReadonlyMap<number, FeeCeiling>;
  /** `TX_FEE_CAP_<id>` of the served chains (absent: one coin) */
  txFeeCaps?: ReadonlyMap<number, bigint>;
  /** the served chains' configured tariffs, which a sweep policy's cost rule counts (absent: policy sweeps with rules wait) */
  tariffs?: ReadonlyMap<number, ChainTariff>;
  settings: { gasMarginBps: number; reads: ReadBatching } & SettingsOf<K>;
  logger: Logger;
  /** called after a claim wrote outbox messages (batch.ready, events), so the relay sends them at once */
  wrote?: () => void;
}

export type WorkRoundResult<K extends WorkKind> = ClaimedOf<K> | { outcome: "nothing_due" | "not_served" | "chain_unavailable" | "waiting_for_gas_price" };

/**
 * One round for one target of a kind of work (a hot wallet's sweeps, a partner's revocations on a
 * chain; round-kinds.ts): find its due work, hold it while the base fee keeps its batch above the
 * fee ceiling (gasPriceGate), read its addresses on chain, wait for what the load asks (the batch
 * read ahead of to be sent), then claim (readThenClaim).
 */
export function createWorkRound<K extends WorkKind>(kind: K, deps: WorkRoundDeps<K>): (target: TargetOf<K>) => Promise<WorkRoundResult<K>> {
  const { db, names, providers, settings } = deps;
  const rules: RoundRules<K> = roundKinds[kind];
  return async (target) => {
    const startedAt = Date.now();
    const payer = await rules.payer(db, target);
    if ("outcome" in payer) return payer;
    const { partnerId, chainId } = payer;
    const logger = deps.logger.child({ ...rules.logFields(target), partnerId, chainId });
    const provider = providers.get(chainId);
    const chainCeiling = deps.feeCeilings.get(chainId);
    if (!provider || !chainCeiling) {
      logger.warn(`${rules.noun} of a chain this batcher does not serve`);
      return { outcome: "not_served" };
    }
    const work = await rules.load(db, target, payer, settings, new Date());
    if (work.outcome !== "ready") return work;
    const gate = await gasPriceGate(db, provider, { kind, partnerId, chainId, chainCeiling, ids: work.ids }, logger);
    if (gate.outcome !== "go") return { outcome: gate.outcome };
    const market = work.byPolicy ? await policyMarket(provider, gate.baseFee, chainCeiling, deps.tariffs?.get(chainId), logger) : null;

    const ctx = { db, provider, chainId, reads: settings.reads, gasMarginBps: settings.gasMarginBps, txFeeCap: deps.txFeeCaps?.get(chainId), logger, noun: rules.noun };
    // Where a round's time goes (logged with its batch): finding its work, the chain reads, the wait for the batch read ahead of, the claims.
    const ms: RoundTimes = { load: Date.now() - startedAt, read: 0, wait: 0, claim: 0 };
    let since = Date.now();
    const lap = (step: "read" | "wait" | "claim") => {
      const now = Date.now();
      ms[step] += now - since;
      since = now;
    };
    let beforeClaim = work.beforeClaim;
    const claimed = await readThenClaim(ctx, work.reads, async (chain, gasBudget, lastPass) => {
      lap("read");
      await beforeClaim?.();
      beforeClaim = undefined;
      lap("wait");
      const pass = await rules.claim(db, names, target, settings, { chain, gasBudget, lastPass, market });
      lap("claim");
      return pass;
    });
    if (claimed === null) return { outcome: "chain_unavailable" };
    const { result, blockNumber } = claimed;
    if (!planned(result)) {
      logger.debug("claim skipped", { outcome: result.outcome });
      return result;
    }
    rules.logPlanned(logger, result, blockNumber, ms);
    if (result.batchId !== null || result.plan.rejections.length > 0) deps.wrote?.();
    return result;
  };
}

/**
 * What a policy's sweeps are judged at: the gas price the batch would pay (the base fee read by the
 * gate and the tip the sender would offer: the node's suggestion under the chain's tip ceiling), and
 * the chain's tariff. Null when either is missing: their sweeps with rules wait rather than guess.
 */
async function policyMarket(provider: ChainProvider, baseFee: bigint, ceiling: FeeCeiling, tariff: ChainTariff | undefined, logger: Logger): Promise<ClaimMarket | null> {
  if (!tariff) return null;
  try {
    const suggested = BigInt((await provider.send("eth_maxPriorityFeePerGas", [])) as string);
    return { gasPrice: baseFee + offeredTip(suggested, ceiling), tariff };
  } catch (err) {
    logger.warn("could not read the chain's tip: policy sweeps with rules wait this round", { error: err instanceof Error ? err.message : String(err) });
    return null;
  }
}

/** The narrowing `result.outcome === "planned"` does not do on a result of a kind still generic. */
function planned<K extends WorkKind>(result: ClaimedOf<K>): result is PlannedOf<K> {
  return result.outcome === "planned";
}
