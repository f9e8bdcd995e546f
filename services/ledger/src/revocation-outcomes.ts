import type { AttemptFailureReason } from "@sweep/common";
import { afterAttemptFailure, type AfterAttemptFailure } from "@sweep/lifecycle";
import { splitEvenly } from "./gas-split";
import type { Receipt } from "./outcomes";

/** A revocation batch's item as the chain-sender left it: outcome is set for the items the transaction carried. */
export interface RevocationItemResult {
  position: number;
  revocationId: string | null;
  /** "revoked" (the account has no code at the receipt's block) or "not_applied" */
  outcome: string | null;
}

/** A revocation of the batch still waiting for its outcome (status processing). */
export interface OpenRevocation {
  id: string;
  /** attempts so far, the one of this batch included */
  attempts: number;
}

/** What the transaction did for a revocation: its share of the gas, in gas and in wei. */
export interface RevocationOnChain {
  txHash: string;
  gas: bigint;
  gasCost: bigint;
}

export type RevocationSettlement =
  | { revocationId: string; outcome: "revoked"; onChain: RevocationOnChain }
  | { revocationId: string; outcome: "failed"; onChain: RevocationOnChain; reason: "not_applied" }
  | { revocationId: string; outcome: "attempt_failed"; next: AfterAttemptFailure };

/** Every given revocation's attempt failed: back to queued with the reason, or failed when attempts ran out. */
export function settleFailedRevocationAttempt(open: readonly OpenRevocation[], reason: AttemptFailureReason, maxAttempts: number, now: Date): RevocationSettlement[] {
  return open.map((revocation) => ({ revocationId: revocation.id, outcome: "attempt_failed", next: afterAttemptFailure(revocation.attempts, maxAttempts, reason, now) }));
}

interface CarriedRevocation {
  revocationId: string;
  outcome: "revoked" | "not_applied";
}

/** The items the transaction carried, in transaction order; an outcome the contract does not know is the chain-sender's bug, not a guess to make here. */
function carriedRevocations(items: readonly RevocationItemResult[]): CarriedRevocation[] {
  return [...items]
    .sort((a, b) => a.position - b.position)
    .flatMap((item) => {
      if (item.outcome === null) return [];
      if (item.revocationId === null) throw new Error(`batch item at position ${item.position} has an outcome but no revocation`);
      if (item.outcome !== "revoked" && item.outcome !== "not_applied") throw new Error(`batch item at position ${item.position} has the unknown revocation outcome ${item.outcome}`);
      return [{ revocationId: item.revocationId, outcome: item.outcome }];
    });
}

/**
 * What each open revocation of a confirmed revocation batch becomes. The receipt's gas is split
 * evenly over every item the transaction carried (settled earlier or not, so a redelivery computes
 * the same shares); each open revocation is revoked, or failed not_applied, by its item. The item's
 * outcome holds whatever the receipt says: a type-4 transaction's authorizations stay applied when
 * its execution reverts. An open revocation without an outcome was not decided by this transaction:
 * its attempt failed, transaction_reverted when the receipt failed and internal otherwise.
 */
export function settleRevocationBatch(input: {
  receipt: Receipt;
  items: readonly RevocationItemResult[];
  openRevocations: readonly OpenRevocation[];
  maxAttempts: number;
  now: Date;
}): RevocationSettlement[] {
  const { receipt, openRevocations, maxAttempts, now } = input;
  const carried = carriedRevocations(input.items);
  const shares = carried.length > 0 ? splitEvenly(receipt.gasUsed, carried.length) : [];
  const l1Shares = carried.length > 0 ? splitEvenly(receipt.l1Fee, carried.length) : [];
  const byRevocation = new Map(carried.map((item, i) => [item.revocationId, { outcome: item.outcome, gas: shares[i]!, l1Fee: l1Shares[i]! }]));
  const undecided: AttemptFailureReason = receipt.succeeded ? "internal" : "transaction_reverted";

  return openRevocations.map((revocation): RevocationSettlement => {
    const carriedItem = byRevocation.get(revocation.id);
    if (!carriedItem) return settleFailedRevocationAttempt([revocation], undecided, maxAttempts, now)[0]!;
    const { outcome, gas, l1Fee } = carriedItem;
    const onChain = { txHash: receipt.hash, gas, gasCost: gas * receipt.effectiveGasPrice + l1Fee };
    return outcome === "revoked" ? { revocationId: revocation.id, outcome: "revoked", onChain } : { revocationId: revocation.id, outcome: "failed", onChain, reason: "not_applied" };
  });
}
