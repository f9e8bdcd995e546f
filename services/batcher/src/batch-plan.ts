import { BATCH_BASE_GAS, itemGas } from "./gas-budget";
import { hasRules, policyHold, type PolicyHold, type PolicyMarket, type PolicyRules } from "./policies/policy-rules";
import {
  authorizationStatus,
  checkBalance,
  delegationOf,
  firstKind,
  isDelegatedTo,
  type AccountState,
  type AuthorizationClaim,
  type RejectionReason,
  type SweepKind,
} from "./pre-send-checks";

export interface CandidateSweep {
  id: string;
  account: string;
  /** null for the native coin */
  tokenAddress: string | null;
  /** null: the whole balance */
  amount: bigint | null;
  keepOneUnit: boolean;
  authorization: AuthorizationClaim | null;
  /** the ticker, for the fee a policy's cost rule counts */
  token: string;
  /** a policy's sweep: its rules on sending (null for a partner's sweep) */
  policy: PolicyRules | null;
}

/** The chain state the plan is made from, keyed by accountKey / balanceKey. */
export interface ChainView {
  accounts: ReadonlyMap<string, AccountState>;
  /** token balances; the native balance is in the account's state */
  tokenBalances: ReadonlyMap<string, bigint>;
}

export interface PlanInput {
  /** this hot wallet's delegate */
  delegate: string;
  /** due queued sweeps of one hot wallet, in arrival order */
  sweeps: readonly CandidateSweep[];
  chain: ChainView;
  /**
   * Accounts (accountKey) for which another sweep of this hot wallet, not among `sweeps` (queued
   * but not yet due, or still processing), holds an authorization: their sweeps without a usable
   * one of their own wait for it instead of being rejected.
   */
  pendingAuthorizations: ReadonlySet<string>;
  /** Accounts (accountKey) the delegation firewall marked compromised in the partner's inventory: their sweeps are rejected foreign_delegation, unread. */
  compromised: ReadonlySet<string>;
  gasBudget: bigint;
  /** the gas price and tariff a policy's rules are judged at; null holds every policy sweep with rules (waiting_for_gas_price) */
  market: PolicyMarket | null;
}

export interface PlannedItem {
  sweepId: string;
  withAuthorization: boolean;
  kind: SweepKind;
}

export type WaitReason =
  /** the chain was not read for it (it arrived after the reads) */
  | "unread"
  /** another sweep's authorization will delegate its address */
  | "awaiting_delegation"
  /** the batch is full */
  | "gas_limit"
  /** its policy's gas price or cost rule (the sweep says so while queued) */
  | PolicyHold;

export interface Plan {
  /** in transaction order */
  items: PlannedItem[];
  rejections: { sweepId: string; reason: RejectionReason }[];
  waiting: { sweepId: string; reason: WaitReason }[];
}

export const accountKey = (account: string) => account.toLowerCase();
export const balanceKey = (account: string, token: string) => `${account.toLowerCase()}:${token.toLowerCase()}`;

/** Whether the chain view has what the checks of this sweep need. */
export function isRead(sweep: Pick<CandidateSweep, "account" | "tokenAddress">, chain: ChainView): boolean {
  return chain.accounts.has(accountKey(sweep.account)) && (sweep.tokenAddress === null || chain.tokenBalances.has(balanceKey(sweep.account, sweep.tokenAddress)));
}

/**
 * The checks before sending and the batch, decided together because they depend on each other:
 * - an address the firewall marked compromised is rejected foreign_delegation, nothing sent to it;
 * - an address delegated to this delegate is swept without its authorization (kind repeat);
 * - otherwise the first sweep of the address with a usable authorization carries it (kind first
 *   or first_new), and every other sweep of that address rides on it, placed right after it, as
 *   repeat (the authorization list applies before any item runs; the order only keeps the batch
 *   readable and the carrier ahead of its riders when the batch fills up);
 * - a sweep that cannot be delegated waits while another sweep holds an authorization for its
 *   address, and is rejected otherwise: stale_authorization when its own authorization carries
 *   another nonce, not_upgraded when it has none (or the address holds contract code);
 * - balances are checked against what the items before it in the batch leave;
 * - a policy's sweep whose gas price or cost rule the item would break waits, saying why (its
 *   address's other sweeps wait for its authorization);
 * - items are added while they fit the gas budget (at least one); once full, every sweep not
 *   yet decided waits for the next batch, undecided;
 * - a sweep the chain was not read for waits (unread) holding the most gas it can cost, and its
 *   address's other sweeps wait for its authorization: the claim reads it and plans again while
 *   it may fit, and past the budget it waits for the next batch (gas_limit) unread.
 */
export function planBatch(input: PlanInput): Plan {
  const plan: Plan = { items: [], rejections: [], waiting: [] };
  const remaining = new Map<string, bigint>();
  const delegatedInBatch = new Set<string>();
  const riders = new Map<string, { sweep: CandidateSweep; reason: RejectionReason }[]>();
  /** addresses whose carrier of an authorization waits: a policy holds it, or it was not read */
  const heldCarriers = new Set<string>();
  let gas = BATCH_BASE_GAS;
  /** sweeps not read whose gas is held for them (see the loop) */
  let unreadHeld = 0;
  let full = false;

  // Only called for sweeps that were read.
  const balanceOf = (sweep: CandidateSweep, state: AccountState): bigint => {
    const key = balanceKey(sweep.account, sweep.tokenAddress ?? "native");
    return remaining.get(key) ?? (sweep.tokenAddress === null ? state.nativeBalance : input.chain.tokenBalances.get(key)!);
  };

  /** Checks the balance and adds the item when it fits; false when it did not go in. */
  const add = (sweep: CandidateSweep, state: AccountState, kind: SweepKind, withAuthorization: boolean): boolean => {
    if (full) {
      plan.waiting.push({ sweepId: sweep.id, reason: "gas_limit" });
      return false;
    }
    const balance = balanceOf(sweep, state);
    const check = checkBalance(balance, { amount: sweep.amount, keepOneUnit: sweep.keepOneUnit, native: sweep.tokenAddress === null });
    if (!check.ok) {
      plan.rejections.push({ sweepId: sweep.id, reason: check.reason });
      return false;
    }
    const cost = itemGas(withAuthorization);
    if (sweep.policy !== null) {
      const item = { token: sweep.token, native: sweep.tokenAddress === null, moves: check.moves, kind, gas: cost };
      const hold = input.market !== null ? policyHold(sweep.policy, item, input.market) : hasRules(sweep.policy) ? "waiting_for_gas_price" : null;
      if (hold !== null) {
        plan.waiting.push({ sweepId: sweep.id, reason: hold });
        if (withAuthorization) heldCarriers.add(accountKey(sweep.account));
        return false;
      }
    }
    if (plan.items.length + unreadHeld > 0 && gas + cost > input.gasBudget) {
      full = true;
      plan.waiting.push({ sweepId: sweep.id, reason: "gas_limit" });
      return false;
    }
    gas += cost;
    remaining.set(balanceKey(sweep.account, sweep.tokenAddress ?? "native"), balance - check.moves);
    plan.items.push({ sweepId: sweep.id, withAuthorization, kind });
    return true;
  };

  for (const sweep of input.sweeps) {
    const key = accountKey(sweep.account);
    if (input.compromised.has(key)) {
      plan.rejections.push({ sweepId: sweep.id, reason: "foreign_delegation" });
      continue;
    }
    if (full) {
      plan.waiting.push({ sweepId: sweep.id, reason: "gas_limit" });
      continue;
    }
    const state = input.chain.accounts.get(key);
    if (state === undefined || !isRead(sweep, input.chain)) {
      // It holds the most gas it can cost (fittingItems), so that what was not read is read only while it may still fit.
      const cost = itemGas(sweep.authorization !== null);
      if (plan.items.length + unreadHeld > 0 && gas + cost > input.gasBudget) {
        full = true;
        plan.waiting.push({ sweepId: sweep.id, reason: "gas_limit" });
        continue;
      }
      gas += cost;
      unreadHeld++;
      if (sweep.authorization !== null) heldCarriers.add(key);
      plan.waiting.push({ sweepId: sweep.id, reason: "unread" });
      continue;
    }
    if (isDelegatedTo(state, input.delegate) || delegatedInBatch.has(key)) {
      add(sweep, state, "repeat", false);
      continue;
    }
    const authorization = delegationOf(state.code).kind === "contract" ? "absent" : authorizationStatus(sweep.authorization, state, input.delegate);
    if (authorization === "usable") {
      if (add(sweep, state, firstKind(state), true)) {
        delegatedInBatch.add(key);
        for (const rider of riders.get(key) ?? []) add(rider.sweep, state, "repeat", false);
        riders.delete(key);
      }
      continue;
    }
    const waitingOnAddress = riders.get(key) ?? [];
    waitingOnAddress.push({ sweep, reason: authorization === "stale" ? "stale_authorization" : "not_upgraded" });
    riders.set(key, waitingOnAddress);
  }

  for (const [key, waitingOnAddress] of riders) {
    for (const { sweep, reason } of waitingOnAddress) {
      if (full) plan.waiting.push({ sweepId: sweep.id, reason: "gas_limit" });
      else if (input.pendingAuthorizations.has(key) || heldCarriers.has(key)) plan.waiting.push({ sweepId: sweep.id, reason: "awaiting_delegation" });
      else plan.rejections.push({ sweepId: sweep.id, reason });
    }
  }
  return plan;
}
