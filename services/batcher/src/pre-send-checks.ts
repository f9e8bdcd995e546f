import { getAddress } from "ethers";

/** What the chain says about a deposit address just before its batch is claimed. */
export interface AccountState {
  /** eth_getCode */
  code: string;
  /** eth_getTransactionCount: the nonce its next authorization must carry */
  nonce: number;
  /** native balance, wei */
  nativeBalance: bigint;
}

/** The part of a sweep's stored authorization the checks need. */
export interface AuthorizationClaim {
  /** the delegate it signs for */
  address: string;
  nonce: number;
}

export type Delegation =
  /** a plain address */
  | { kind: "none" }
  /** EIP-7702 delegation designator 0xef0100 || address */
  | { kind: "delegated"; to: string }
  /** code that is not a designator: a contract, which no authorization can delegate */
  | { kind: "contract" };

export type RejectionReason = "not_upgraded" | "stale_authorization" | "would_fail" | "nothing_to_sweep" | "foreign_delegation";
export type SweepKind = "repeat" | "first" | "first_new";

const DESIGNATOR = "0xef0100";

/** Reads the delegation from an address's code. */
export function delegationOf(code: string): Delegation {
  const hex = code.toLowerCase();
  if (hex === "0x") return { kind: "none" };
  if (hex.startsWith(DESIGNATOR) && hex.length === DESIGNATOR.length + 40) return { kind: "delegated", to: getAddress(`0x${hex.slice(DESIGNATOR.length)}`) };
  return { kind: "contract" };
}

export function isDelegatedTo(state: AccountState, delegate: string): boolean {
  const delegation = delegationOf(state.code);
  return delegation.kind === "delegated" && sameAddress(delegation.to, delegate);
}

/**
 * Whether a sweep's authorization can delegate the address in the next transaction: it must sign
 * for this delegate (the API checked that; a stored one that does not counts as absent) and carry
 * the address's current nonce, which the chain compares when it applies the authorization.
 */
export function authorizationStatus(authorization: AuthorizationClaim | null, state: AccountState, delegate: string): "usable" | "stale" | "absent" {
  if (authorization === null || !sameAddress(authorization.address, delegate)) return "absent";
  return authorization.nonce === state.nonce ? "usable" : "stale";
}

/**
 * Kind of the sweep that delegates the address, from its state before the batch: first when it
 * already had an account (a nonce, native coin or code), first_new when the delegation creates it.
 */
export function firstKind(state: AccountState): Exclude<SweepKind, "repeat"> {
  return state.nonce > 0 || state.nativeBalance > 0n || state.code !== "0x" ? "first" : "first_new";
}

export interface AmountRequest {
  /** null: the whole balance */
  amount: bigint | null;
  keepOneUnit: boolean;
  native: boolean;
}

export type BalanceCheck = { ok: true; moves: bigint } | { ok: false; reason: "would_fail" | "nothing_to_sweep" };

/**
 * The requested amount against the balance, as the delegate will judge it: keep_one_unit leaves
 * 1 unit of a token (never of the native coin); nothing available is nothing_to_sweep whatever
 * was asked; more than available would fail. `moves` is what the item takes off the balance.
 */
export function checkBalance(balance: bigint, request: AmountRequest): BalanceCheck {
  const available = !request.native && request.keepOneUnit && balance > 0n ? balance - 1n : balance;
  if (available <= 0n) return { ok: false, reason: "nothing_to_sweep" };
  if (request.amount !== null && request.amount > available) return { ok: false, reason: "would_fail" };
  return { ok: true, moves: request.amount ?? available };
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
