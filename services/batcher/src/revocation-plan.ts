import { accountKey } from "./batch-plan";
import { REVOCATION_BASE_GAS, REVOCATION_ITEM_GAS } from "./gas-budget";
import { delegationOf, type AccountState } from "./pre-send-checks";

export interface CandidateRevocation {
  id: string;
  account: string;
  /** the nonce its authorization of the zero address carries; null when the stored one cannot be sent */
  authorizationNonce: number | null;
}

export interface RevocationPlanInput {
  /** due queued revocations of one gas wallet and chain, in arrival order */
  revocations: readonly CandidateRevocation[];
  /** the accounts as read on chain, by accountKey */
  accounts: ReadonlyMap<string, AccountState>;
  gasBudget: bigint;
}

export type RevocationRejection = "not_delegated" | "stale_authorization" | "invalid_authorization";

export type RevocationWait =
  /** the chain was not read for it (it arrived after the reads) */
  | "unread"
  /** an earlier revocation of the same account is in this batch */
  | "account_in_batch"
  /** the batch is full */
  | "gas_limit";

export interface RevocationPlan {
  /** revocation ids in the order of the transaction's authorization list */
  items: string[];
  rejections: { revocationId: string; reason: RevocationRejection }[];
  waiting: { revocationId: string; reason: RevocationWait }[];
}

/**
 * The checks before sending a revocation, and the batch:
 * - a stored authorization that cannot be sent is invalid_authorization, whatever the chain says;
 * - an account whose code is not a delegation designator has nothing to remove (not_delegated):
 *   a designator of any delegate counts, not only this partner's;
 * - the authorization must carry the account's current nonce (stale_authorization), which the chain
 *   compares when it applies it;
 * - one revocation per account: the first one that passes goes, later ones wait for the next batch
 *   (applied, the first moves the nonce and clears the code, so they could only be skipped);
 * - authorizations are added while they fit the gas budget (at least one).
 */
export function planRevocations(input: RevocationPlanInput): RevocationPlan {
  const plan: RevocationPlan = { items: [], rejections: [], waiting: [] };
  const inBatch = new Set<string>();
  let gas = REVOCATION_BASE_GAS;
  for (const revocation of input.revocations) {
    const revocationId = revocation.id;
    const key = accountKey(revocation.account);
    const state = input.accounts.get(key);
    if (revocation.authorizationNonce === null) plan.rejections.push({ revocationId, reason: "invalid_authorization" });
    else if (state === undefined) plan.waiting.push({ revocationId, reason: "unread" });
    else if (delegationOf(state.code).kind !== "delegated") plan.rejections.push({ revocationId, reason: "not_delegated" });
    else if (revocation.authorizationNonce !== state.nonce) plan.rejections.push({ revocationId, reason: "stale_authorization" });
    else if (inBatch.has(key)) plan.waiting.push({ revocationId, reason: "account_in_batch" });
    else if (plan.items.length > 0 && gas + REVOCATION_ITEM_GAS > input.gasBudget) plan.waiting.push({ revocationId, reason: "gas_limit" });
    else {
      gas += REVOCATION_ITEM_GAS;
      inBatch.add(key);
      plan.items.push(revocationId);
    }
  }
  return plan;
}
