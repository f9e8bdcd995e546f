import { readStoredAuthorization } from "@sweep/chains";
import { NATIVE_TOKEN, type SweepItem, type SweepOutcome } from "@sweep/contracts";
import { Signature, getAddress, type Authorization } from "ethers";

/**
 * The EIP-7702 authorization in a stored sweep or revocation, or null when there is none or it
 * cannot be read. Stricter than the stored shape: chain 0 (any chain) is never carried, nor an
 * address or signature ethers refuses.
 */
export function parseStoredAuthorization(json: unknown): Authorization | null {
  const a = readStoredAuthorization(json);
  if (!a || a.chain_id <= 0) return null;
  try {
    return {
      address: getAddress(a.address),
      nonce: BigInt(a.nonce),
      chainId: BigInt(a.chain_id),
      signature: Signature.from({ r: a.r, s: a.s, yParity: a.y_parity }),
    };
  } catch {
    return null;
  }
}

/** What the sender needs of one batch item and its sweep. */
export interface BatchItemRow {
  position: number;
  sweepId: string;
  withAuthorization: boolean;
  sweep: { account: string; tokenAddress: string | null; amount: bigint | null; keepOneUnit: boolean; authorization: unknown };
}

export interface PlannedItem {
  position: number;
  sweepId: string;
  item: SweepItem;
  /** carried in the transaction when the item is */
  authorization: Authorization | null;
}

/**
 * The items in transaction order, each with the authorization it must carry; an item of a token in
 * `feeOnTransferTokens` (lower-case addresses: the chain's tokens marked FEE_ON_TRANSFER_) asks the
 * delegate for what the hot wallet received.
 */
export function planItems(rows: readonly BatchItemRow[], feeOnTransferTokens: ReadonlySet<string> = new Set()): PlannedItem[] {
  return [...rows]
    .sort((a, b) => a.position - b.position)
    .map((row) => ({
      position: row.position,
      sweepId: row.sweepId,
      item: {
        account: getAddress(row.sweep.account),
        token: row.sweep.tokenAddress ?? NATIVE_TOKEN,
        amount: row.sweep.amount ?? 0n,
        keepOneUnit: row.sweep.keepOneUnit,
        feeOnTransfer: row.sweep.tokenAddress !== null && feeOnTransferTokens.has(row.sweep.tokenAddress.toLowerCase()),
      },
      authorization: row.withAuthorization ? parseStoredAuthorization(row.sweep.authorization) : null,
    }));
}

/**
 * The authorization list of a transaction carrying `kept` out of `all`: the authorizations of every
 * item whose account is still in the transaction (a dropped item's authorization may be what
 * delegates the account for a kept item of the same account), each once.
 */
export function authorizationList(all: readonly PlannedItem[], kept: readonly PlannedItem[]): Authorization[] {
  const accounts = new Set(kept.map((p) => p.item.account));
  const seen = new Set<string>();
  const list: Authorization[] = [];
  for (const planned of all) {
    const a = planned.authorization;
    if (!a || !accounts.has(planned.item.account)) continue;
    const key = `${a.signature.r}:${a.signature.s}`;
    if (seen.has(key)) continue;
    seen.add(key);
    list.push(a);
  }
  return list;
}

/**
 * Splits items by their simulated outcomes (one per item, in order): those that would fail are left
 * out of the transaction. Returns null when the outcomes do not line up with the items, which only
 * a wrong delegate or a broken simulation produces.
 */
export function splitBySimulation(items: readonly PlannedItem[], outcomes: readonly SweepOutcome[]): { kept: PlannedItem[]; dropped: PlannedItem[] } | null {
  if (outcomes.length !== items.length) return null;
  if (outcomes.some((o, i) => o.account !== items[i]!.item.account)) return null;
  return {
    kept: items.filter((_p, i) => outcomes[i]!.swept),
    dropped: items.filter((_p, i) => !outcomes[i]!.swept),
  };
}

/** The outcome of each carried item (in order) from the receipt's outcomes, or null when they do not line up. */
export function matchOutcomes<T extends { account: string }>(carried: readonly T[], outcomes: readonly SweepOutcome[]): Array<{ item: T; outcome: SweepOutcome }> | null {
  if (outcomes.length !== carried.length) return null;
  if (outcomes.some((o, i) => o.account.toLowerCase() !== carried[i]!.account.toLowerCase())) return null;
  return carried.map((item, i) => ({ item, outcome: outcomes[i]! }));
}
