import type { ChainClient, Receipt } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import type { BatchPurpose, Db, Tx } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import type { PendingMetrics } from "@sweep/metrics";
import type { BatchToSend, MinedBatch, OpenBatchRow } from "./batch-types";
import { loadDeployBatch, loadRevocationBatch, loadSweepBatch, loadWithdrawalBatch } from "./send/batch-loads";
import { rejectWouldFail } from "./send/would-fail-rejection";
import { readRevocationOutcomes, recordItemOutcomes, recordRevocationOutcomes, type RevocationItemOutcome } from "./watch/mined-outcomes";
import { deploymentContent, revocationContent, sweepContent, withdrawalContent, type ContentContext, type PlannedContent } from "./send/transaction-content";
import { drainValue, withdrawalValue } from "./send/withdrawal-plan";

/** A transaction's value and the fees due the gas wallet's balance must keep besides it. */
export interface Spending {
  /** null: nothing left to send */
  value: bigint | null;
  kept: bigint;
}

/** What the transaction of a batch carries, as log fields: grepping a sweep's id finds the transaction that carried it. */
export type CarriedIds = { sweepIds: string[] } | { revocationIds: string[] } | { hotWalletId: string } | Record<string, never>;

/** How the chain-sender sends the batches of one purpose, stage by stage. */
export interface PurposeStages<B extends BatchToSend> {
  /** the purpose's part of an open batch, or why it is not sent */
  load(db: Db, row: OpenBatchRow): Promise<{ batch: B } | { skip: string }>;
  /** the transaction's call and gas limit, or nothing to send, and the sweeps a simulation left out */
  content(ctx: ContentContext, batch: B): PlannedContent | Promise<PlannedContent>;
  /** the value sent, from the balance at the attempt's block, the gas limit and the max fee */
  /** `l1Reserve`: what the transaction's L1 data fee may cost (OP-stack chains; 0 elsewhere) */
  spending(batch: B, balance: bigint, gasLimit: bigint, maxFeePerGas: bigint, l1Reserve: bigint): Spending;
  /** in the attempt's database transaction: the items left out, settled */
  rejectDropped(tx: Tx, names: QueueNames, batch: B, dropped: readonly string[], metrics: PendingMetrics): Promise<void>;
  carriedIds(batch: B, dropped: readonly string[]): CarriedIds;
}

/** How the watcher sees the batches of one purpose through, once their transaction is out. */
export interface MinedStages {
  /** a gap filler takes an abandoned nonce: it carries no items, is never replaced, and its batch never fails to anyone */
  gapFill: boolean;
  /**
   * read from the chain before settling (no chain call inside a database transaction); throws when the node does not answer.
   * `restoring`: for a given-up transaction found mined, also of the items its restoration takes back
   */
  chainOutcomes(db: Db, client: ChainClient, batch: MinedBatch, receipt: Receipt, restoring?: boolean): Promise<RevocationItemOutcome[]>;
  /** in the settlement's database transaction: each carried item's outcome */
  recordOutcomes(tx: Tx, batch: MinedBatch, receipt: Receipt, revocations: readonly RevocationItemOutcome[], logger: Logger): Promise<void>;
}

const nothing = async () => {};
const noOutcomes = async (): Promise<RevocationItemOutcome[]> => [];
/** What most purposes do once mined: nothing of their own; the ledger settles them from tx.outcome. */
const plainMined: MinedStages = { gapFill: false, chainOutcomes: noOutcomes, recordOutcomes: nothing };
/** Most batches send no value, and keep the fees due on the wallet. */
const noValue = (batch: BatchToSend): Spending => ({ value: 0n, kept: batch.feesDue });
/** Gap fillers are made and sent by the watcher, never as an open batch: their other stages are never reached. */
const neverSent = (): never => {
  throw new Error("gap fill batches are sent by the watcher, not as open batches");
};

type Stages = { [P in BatchPurpose]: PurposeStages<Extract<BatchToSend, { purpose: P }>> & MinedStages };

/**
 * The chain-sender's one map of batch purposes: how each is loaded, built, valued and woken after,
 * and seen through once mined. A new purpose does not compile until every stage handles it.
 */
export const batchPurposes: Stages = {
  sweep: {
    load: loadSweepBatch,
    content: sweepContent,
    spending: noValue,
    rejectDropped: rejectWouldFail,
    carriedIds: (batch, dropped) => {
      const left = new Set(dropped);
      return { sweepIds: batch.items.map((item) => item.sweepId).filter((id) => !left.has(id)) };
    },
    ...plainMined,
    recordOutcomes: async (tx, batch, receipt, _revocations, logger) => {
      if (receipt.succeeded && batch.delegate) await recordItemOutcomes(tx, batch.id, batch.delegate, receipt, logger);
    },
  },
  revocation: {
    load: loadRevocationBatch,
    content: revocationContent,
    spending: noValue,
    rejectDropped: nothing,
    carriedIds: (batch) => ({ revocationIds: batch.items.map((item) => item.revocationId) }),
    ...plainMined,
    chainOutcomes: (db, client, batch, receipt, restoring) => readRevocationOutcomes(db, client, batch.id, receipt, restoring),
    recordOutcomes: async (tx, _batch, _receipt, revocations) => {
      if (revocations.length > 0) await recordRevocationOutcomes(tx, revocations);
    },
  },
  deploy_delegate: {
    load: loadDeployBatch,
    content: deploymentContent,
    spending: noValue,
    rejectDropped: nothing,
    carriedIds: (batch) => ({ hotWalletId: batch.hotWalletId }),
    ...plainMined,
  },
  withdrawal: {
    load: loadWithdrawalBatch,
    content: withdrawalContent,
    // A withdrawal spends the fees due themselves (value + gas = fees due), so they are not kept back from it as well; a drain keeps them.
    spending: (batch, balance, gasLimit, maxFeePerGas, l1Reserve) =>
      batch.drainTo === null
        ? { value: withdrawalValue(batch.feesDue, gasLimit, maxFeePerGas, l1Reserve), kept: 0n }
        : { value: drainValue({ balance, feesDue: batch.feesDue, inFlightCost: batch.inFlightCost }, gasLimit, maxFeePerGas, l1Reserve), kept: batch.feesDue },
    rejectDropped: nothing,
    carriedIds: () => ({}),
    ...plainMined,
  },
  gap_fill: {
    load: async () => ({ skip: "gap_fill batches are not sent by this version" }),
    content: neverSent,
    spending: neverSent,
    rejectDropped: neverSent,
    carriedIds: neverSent,
    ...plainMined,
    gapFill: true,
  },
};

/** The stages of a batch's purpose, typed for that batch (TypeScript cannot correlate the map's entry with the union by itself). */
export function stagesOf<B extends BatchToSend>(batch: B): PurposeStages<B> {
  return batchPurposes[batch.purpose] as unknown as PurposeStages<B>;
}
