import type { AttemptFailureReason } from "@sweep/common";
import type { Batch, BatchPurpose, HotWallet } from "@sweep/db";
import type { Fees } from "./fees";
import type { GasWalletRow } from "./gas-wallet-signers";
import type { SignedTransaction } from "./signing";
import type { RevocationItemRow } from "./send/revocation-plan";
import type { BatchItemRow } from "./send/sweep-plan";

/*
 * The batches and transactions the chain-sender sends and watches, as types only: the stores, the
 * purpose map and the stages each purpose runs all import them from here, and none from another.
 */

export interface BatchBase {
  id: string;
  chainId: number;
  partnerId: string;
  gasWallet: GasWalletRow;
  /** null for a revocation batch (the gas wallet sends it to itself) and a withdrawal (to the treasury) */
  hotWalletId: string | null;
  /** fees accrued and not withdrawn: kept on the gas wallet, not spent on gas (a withdrawal sends them) */
  feesDue: bigint;
  /** what the gas wallet's transactions in flight on this chain may still cost (gas limit × max fee) */
  inFlightCost: bigint;
}
export type SweepBatchToSend = BatchBase & { purpose: "sweep"; hotWalletId: string; delegate: string; items: BatchItemRow[] };
export type DeployBatchToSend = BatchBase & { purpose: "deploy_delegate"; hotWalletId: string; hotWallet: string };
export type RevocationBatchToSend = BatchBase & { purpose: "revocation"; items: RevocationItemRow[] };
/** `drainTo` null: the fees due to the treasury; else everything but the fees due to that address (a drain). */
export type WithdrawalBatchToSend = BatchBase & { purpose: "withdrawal"; hotWalletId: null; drainTo: string | null };
export type BatchToSend = SweepBatchToSend | DeployBatchToSend | RevocationBatchToSend | WithdrawalBatchToSend;

/** A batch as stored, with its hot wallet, for its purpose to load. */
export type OpenBatchRow = Batch & { hotWallet: HotWallet | null };

/**
 * What one attempt at a batch came to. `dropped` are the sweeps the simulation showed would fail;
 * `leftOut` the items taken out for a later batch (split-sending.ts: over the fee cap, a reserved authority).
 */
export type Attempt = { dropped: string[]; leftOut?: LeftOut[] } & (
  | { type: "failed"; reason: AttemptFailureReason }
  | { type: "empty" }
  | { type: "send"; chainPending: bigint; sign: (nonce: bigint) => Promise<SignedTransaction> }
);

export interface StoredTransaction {
  id: string;
  hash: string;
  rawTx: string;
  nonce: bigint;
}

/** Items taken out of a batch before a transaction carried them, and why (split-sending.ts). */
export interface LeftOut {
  ids: string[];
  why: "fee_cap" | "authority_reserved" | "gas_price";
}

/** The batch of a stored transaction, as the watcher settles it. */
export interface MinedBatch {
  id: string;
  purpose: BatchPurpose;
  hotWalletId: string | null;
  partnerId: string;
  delegate: string | null;
}

/** A stored transaction not yet settled: signed (no node took it yet) or broadcast. */
export interface InFlightTransaction {
  id: string;
  chainId: number;
  gasWalletId: string;
  nonce: bigint;
  replacement: number;
  hash: string;
  rawTx: string;
  status: "signed" | "broadcast";
  fees: Fees;
  createdAt: Date;
  broadcastAt: Date | null;
  batch: MinedBatch | null;
}

/** A stored transaction as its settlement needs it. */
export type MinedTransaction = Pick<InFlightTransaction, "id" | "chainId" | "gasWalletId" | "nonce" | "hash" | "batch">;

/** A transaction whose nonce was given up, looked for on chain from `abandonedAtBlock` on. */
export interface AbandonedTransaction extends MinedTransaction {
  abandonedAtBlock: number;
}
