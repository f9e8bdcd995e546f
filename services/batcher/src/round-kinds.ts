import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { WorkKind } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { claimBatch, type ClaimMarket, type ClaimResult } from "./batch-claim";
import type { ChainView } from "./batch-plan";
import type { ChainReads } from "./chain-reads";
import { hotWalletPayer, loadDueWork, untilSent } from "./due-work";
import { fittingItems } from "./gas-budget";
import type { ClaimPass } from "./read-then-claim";
import { claimRevocations, type RevocationClaimResult } from "./revocation-claim";
import { loadDueRevocations } from "./revocation-work";

/** Per kind of work: what a round is asked for, the settings it takes, and what its claim answers. */
export interface RoundTypes {
  /** a hot wallet's sweeps */
  sweep: { target: string; settings: { maxSweeps: number; maxSent: number; /** BATCH_READ_AHEAD_MS (absent: 0, none) */ readAheadMs?: number }; claimed: ClaimResult };
  /** a partner's revocations on one chain (its gas wallet sends them) */
  revocation: { target: { partnerId: string; chainId: number }; settings: { maxRevocations: number }; claimed: RevocationClaimResult };
}

export type TargetOf<K extends WorkKind> = RoundTypes[K]["target"];
export type SettingsOf<K extends WorkKind> = RoundTypes[K]["settings"];
/** What a claim answers once it read all it needed. */
export type ClaimedOf<K extends WorkKind> = Exclude<RoundTypes[K]["claimed"], { outcome: "unread" }>;
/** Why a claim took nothing without planning; the round's own reads without locks find the same. */
export type RefusalOf<K extends WorkKind> = Exclude<ClaimedOf<K>, { outcome: "planned" }>;
export type PlannedOf<K extends WorkKind> = Extract<ClaimedOf<K>, { outcome: "planned" }>;

/** The partner whose gas wallet sends the round's batch, and its chain. */
export interface RoundPayer {
  partnerId: string;
  chainId: number;
}

/**
 * The due work a round found, read without locks: its ids (for the gas-price gate), what to read of it
 * on chain under the batch's gas budget, and whether a sweep policy's rules are among it (the round
 * then prices the batch's gas).
 */
export type DueLoad<K extends WorkKind> =
  | {
      outcome: "ready";
      ids: string[];
      reads: (gasBudget: bigint) => ChainReads;
      byPolicy: boolean;
      /** what the claim waits for after the reads (a round that read ahead of the batch being prepared) */
      beforeClaim?: () => Promise<void>;
    }
  | RefusalOf<K>
  | { outcome: "nothing_due" };

/** One claim pass of a round: the chain as read so far, the gas budget, whether work still unread may wait, and the market policies are judged at. */
export interface ClaimInput {
  chain: ChainView;
  gasBudget: bigint;
  lastPass: boolean;
  market: ClaimMarket | null;
}

/** How a kind of work's round finds, claims and logs its work: the one place the rounds of the two kinds differ (work-round.ts runs them). */
export interface RoundRules<K extends WorkKind> {
  /** what the round is about, for the log: "sweeps" or "revocations" */
  noun: string;
  /** the fields the round's log lines carry beside the partner and chain */
  logFields(target: TargetOf<K>): Record<string, unknown>;
  /** the partner and chain of the target, read before anything else */
  payer(db: Db, target: TargetOf<K>): Promise<RoundPayer | RefusalOf<K>>;
  load(db: Db, target: TargetOf<K>, payer: RoundPayer, settings: SettingsOf<K>, now: Date): Promise<DueLoad<K>>;
  claim(db: Db, names: QueueNames, target: TargetOf<K>, settings: SettingsOf<K>, pass: ClaimInput): Promise<ClaimPass<ClaimedOf<K>>>;
  logPlanned(logger: Logger, result: PlannedOf<K>, blockNumber: number, ms: RoundTimes): void;
}

/** A round's time in ms: finding its work (and the gas-price gate), the chain reads, the wait for the batch read ahead of, the claims' transactions. */
export interface RoundTimes {
  load: number;
  read: number;
  wait: number;
  claim: number;
}

export const roundKinds: { [K in WorkKind]: RoundRules<K> } = {
  sweep: {
    noun: "sweeps",
    logFields: (hotWalletId) => ({ hotWalletId }),
    payer: hotWalletPayer,
    async load(db, hotWalletId, { partnerId }, settings, now) {
      const work = await loadDueWork(db, { id: hotWalletId, partnerId }, now, settings.maxSweeps, settings.maxSent, settings.readAheadMs);
      if (work.outcome !== "ready") return work;
      const { sweeps, afterSentMs } = work;
      // Only the sweeps that can fit one batch: the claim plans the rest as waiting for the next one, unread.
      const reads = (gasBudget: bigint) => sweepReads(sweeps.slice(0, fittingItems(sweeps.map((s) => s.withAuthorization), gasBudget)));
      const beforeClaim = afterSentMs === null ? undefined : () => untilSent(db, hotWalletId, afterSentMs);
      return { outcome: "ready", ids: sweeps.map((s) => s.id), reads, byPolicy: sweeps.some((s) => s.byPolicy), beforeClaim };
    },
    async claim(db, names, hotWalletId, settings, { chain, gasBudget, lastPass, market }) {
      const result = await claimBatch(db, names, { hotWalletId, maxSent: settings.maxSent, chain, gasBudget, limit: settings.maxSweeps, lastPass, market });
      return result.outcome === "unread" ? { unread: sweepReads(result.sweeps) } : { result };
    },
    logPlanned(logger, { plan, batchId, unreadableAuthorizations }, blockNumber, ms) {
      for (const sweepId of unreadableAuthorizations) logger.error("stored authorization unreadable; treated as absent", { sweepId });
      for (const { sweepId, reason } of plan.rejections) logger.info("sweep rejected", { sweepId, reason, blockNumber });
      for (const { sweepId, reason } of plan.waiting) logger.debug("sweep waits for a later batch", { sweepId, reason });
      if (batchId === null) return;
      plan.items.forEach((item, position) => logger.debug("sweep claimed", { sweepId: item.sweepId, batchId, position, kind: item.kind, withAuthorization: item.withAuthorization }));
      logger.info("batch claimed", { batchId, items: plan.items.length, sweepIds: plan.items.map((i) => i.sweepId), waiting: plan.waiting.length, blockNumber, ms });
    },
  },
  revocation: {
    noun: "revocations",
    logFields: () => ({ round: "revocations" }),
    payer: async (_db, target) => target,
    async load(db, { partnerId, chainId }, _payer, settings, now) {
      const work = await loadDueRevocations(db, partnerId, chainId, now, settings.maxRevocations);
      return work.outcome === "ready" ? { outcome: "ready", ids: work.revocations.map((r) => r.id), reads: () => accountReads(work.revocations.map((r) => r.account)), byPolicy: false } : work;
    },
    async claim(db, names, { partnerId, chainId }, settings, { chain, gasBudget, lastPass }) {
      const result = await claimRevocations(db, names, { partnerId, chainId, accounts: chain.accounts, gasBudget, limit: settings.maxRevocations, lastPass });
      return result.outcome === "unread" ? { unread: accountReads(result.accounts) } : { result };
    },
    logPlanned(logger, { plan, batchId }, blockNumber, ms) {
      for (const { revocationId, reason } of plan.rejections) logger.info("revocation rejected", { revocationId, reason, blockNumber });
      for (const { revocationId, reason } of plan.waiting) logger.debug("revocation waits for a later batch", { revocationId, reason });
      if (batchId !== null) logger.info("revocation batch claimed", { batchId, revocationIds: plan.items, waiting: plan.waiting.length, blockNumber, ms });
    },
  },
};

/** A sweep's checks read its address, and its token balance there when it sweeps a token. */
function sweepReads(sweeps: ReadonlyArray<{ account: string; tokenAddress: string | null }>): ChainReads {
  const tokenBalances = new Map(sweeps.flatMap((s) => (s.tokenAddress === null ? [] : [[`${s.account}:${s.tokenAddress}`, { account: s.account, token: s.tokenAddress }]])));
  return { accounts: [...new Set(sweeps.map((s) => s.account))], tokenBalances: [...tokenBalances.values()] };
}

/** A revocation's checks read its account's code and nonce. */
function accountReads(accounts: readonly string[]): ChainReads {
  return { accounts: [...new Set(accounts)], tokenBalances: [] };
}
