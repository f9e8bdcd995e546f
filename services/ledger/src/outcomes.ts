import type { ChainTariff } from "@sweep/fees";
import type { AttemptFailureReason } from "@sweep/common";
import type { SweepKind } from "@sweep/db";
import { afterAttemptFailure, type AfterAttemptFailure } from "@sweep/lifecycle";
import { sweepFee, type SweepFee } from "@sweep/fees";
import { apportion, directGas, splitGas } from "./gas-split";

/** A confirmed transaction's receipt, as the chain-sender stored it. */
export interface Receipt {
  hash: string;
  succeeded: boolean;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  /** the L1 data fee an OP-stack chain charged beyond gas used × price; 0 elsewhere */
  l1Fee: bigint;
  /** the least L1 data fee of its block, a classic transfer's; 0 where the chain charges none */
  minimumL1Fee: bigint;
}

/** What the transaction took from the gas wallet besides any value it sent: its gas at the price paid, and its L1 data fee. */
export function transactionCost(receipt: Pick<Receipt, "gasUsed" | "effectiveGasPrice" | "l1Fee">): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice + receipt.l1Fee;
}

/** A batch item as the chain-sender left it: outcome, amount and gasUsed are set for the items the transaction carried. */
export interface BatchItemResult {
  position: number;
  sweepId: string | null;
  kind: SweepKind | null;
  withAuthorization: boolean;
  /**
   * "swept", or the reason the item failed ("reverted" or a contract error; Unauthorized when the
   * address did not delegate to the batch's delegate, which then did not call it: no amount, no fee)
   */
  outcome: string | null;
  /** what reached the hot wallet (for a token marked fee-on-transfer, what it received), from the delegate's event */
  amount: bigint | null;
  gasUsed: bigint | null;
}

/** A sweep of the batch still waiting for its outcome (status processing). */
export interface OpenSweep {
  id: string;
  /** attempts so far, the one of this batch included */
  attempts: number;
  token: string;
  native: boolean;
}

/** What the transaction did for a sweep: the fields a sweep that went through keeps. */
export interface OnChainResult {
  txHash: string;
  kind: SweepKind;
  gas: bigint;
  gasCost: bigint;
}

export type SweepSettlement =
  | { sweepId: string; outcome: "swept"; onChain: OnChainResult; sweptAmount: bigint; fee: SweepFee }
  | { sweepId: string; outcome: "failed"; onChain: OnChainResult; reason: string }
  | { sweepId: string; outcome: "attempt_failed"; next: AfterAttemptFailure };

/** Every open sweep of a batch whose attempt failed: back to queued with the reason, or failed when attempts ran out. */
export function settleFailedAttempt(openSweeps: readonly Pick<OpenSweep, "id" | "attempts">[], reason: AttemptFailureReason, maxAttempts: number, now: Date): SweepSettlement[] {
  return openSweeps.map((sweep) => ({ sweepId: sweep.id, outcome: "attempt_failed", next: afterAttemptFailure(sweep.attempts, maxAttempts, reason, now) }));
}

interface CarriedItem {
  sweepId: string;
  kind: SweepKind;
  withAuthorization: boolean;
  outcome: string;
  amount: bigint | null;
  gasUsed: bigint;
}

/** The items the transaction carried, in transaction order; a carried item without its data is the chain-sender's bug, not a guess to make here. */
function carriedItems(items: readonly BatchItemResult[]): CarriedItem[] {
  return [...items]
    .sort((a, b) => a.position - b.position)
    .flatMap((item) => {
      if (item.outcome === null) return [];
      if (item.sweepId === null || item.kind === null || item.gasUsed === null) throw new Error(`batch item at position ${item.position} has an outcome but lacks its sweep, kind or gas`);
      if (item.outcome === "swept" && item.amount === null) throw new Error(`swept batch item at position ${item.position} lacks its amount`);
      return [{ sweepId: item.sweepId, kind: item.kind, withAuthorization: item.withAuthorization, outcome: item.outcome, amount: item.amount, gasUsed: item.gasUsed }];
    });
}

/**
 * What each open sweep of a confirmed sweep batch becomes. A failed receipt is an attempt failure
 * (transaction_reverted) for all of them. Otherwise the receipt's gas is split over every item the
 * transaction carried (settled earlier or not, so a redelivery computes the same shares), and each
 * open sweep is swept with its fee or failed with its item's reason. An open sweep the transaction
 * did not carry cannot be explained by this transaction: its attempt failed (internal).
 */
export function settleSweepBatch(input: {
  receipt: Receipt;
  items: readonly BatchItemResult[];
  openSweeps: readonly OpenSweep[];
  tariff: ChainTariff;
  maxAttempts: number;
  now: Date;
}): SweepSettlement[] {
  const { receipt, openSweeps, tariff, maxAttempts, now } = input;
  if (!receipt.succeeded) return settleFailedAttempt(openSweeps, "transaction_reverted", maxAttempts, now);

  const carried = carriedItems(input.items);
  const shares = carried.length > 0 ? splitGas(receipt.gasUsed, carried) : [];
  // The L1 data fee is split as the gas is: in proportion to each item's direct gas, exact to the wei.
  const l1Shares = carried.length > 0 ? apportion(receipt.l1Fee, carried.map(directGas)) : [];
  const bySweep = new Map(carried.map((item, i) => [item.sweepId, { item, gas: shares[i]!, l1Fee: l1Shares[i]! }]));

  return openSweeps.map((sweep): SweepSettlement => {
    const carriedItem = bySweep.get(sweep.id);
    if (!carriedItem) return settleFailedAttempt([sweep], "internal", maxAttempts, now)[0]!;
    const { item, gas, l1Fee } = carriedItem;
    const onChain = { txHash: receipt.hash, kind: item.kind, gas, gasCost: gas * receipt.effectiveGasPrice + l1Fee };
    if (item.outcome !== "swept") return { sweepId: sweep.id, outcome: "failed", onChain, reason: item.outcome };
    const fee = sweepFee(tariff, { token: sweep.token, native: sweep.native, kind: item.kind, gas, gasPrice: receipt.effectiveGasPrice, l1Fee, minimumL1Fee: receipt.minimumL1Fee });
    return { sweepId: sweep.id, outcome: "swept", onChain, sweptAmount: item.amount!, fee };
  });
}

export type DeploymentOutcome = { status: "active" } | { status: "failed"; error: "not_deployed" | "transaction_reverted" };

/**
 * A hot wallet is active when its delegate has code, whatever the receipt says (the factory
 * returns an existing delegate); otherwise it failed: transaction_reverted when the receipt
 * failed, not_deployed when it went through and the delegate is still absent.
 */
export function deploymentOutcome(delegateHasCode: boolean, receiptSucceeded: boolean): DeploymentOutcome {
  if (delegateHasCode) return { status: "active" };
  return { status: "failed", error: receiptSucceeded ? "not_deployed" : "transaction_reverted" };
}
