/**
 * Which items of a batch leave it when its transaction cannot go as it is: over the fee cap (gas
 * limit × max fee above `TX_FEE_CAP_<id>` or the node's own cap), or refused because an account
 * whose authorization it carries has a transaction of its own in the node's pool (geth's
 * "authority already reserved"). The items that leave go back to the queue for a later batch;
 * the others are sent at once, in a smaller transaction.
 */

/** One item of a sweep or revocation batch, as the split sees it. */
export interface SplitItem {
  id: string;
  account: string;
  /** it carries its account's authorization (a first-time sweep, a revocation) */
  withAuthorization: boolean;
}

/**
 * How many items (a prefix, in transaction order) a transaction of `items` items fits under the
 * cap, from the gas limit it came to: `overheadGas` is the part of the limit no item pays for (the
 * base and the delegate's reserve, with the sender's headroom), the rest is shared evenly. `items`
 * when it fits; 0 when not even one does; otherwise fewer than `items`, so that trying again
 * always ends.
 */
export function itemsWithinCap(input: { items: number; gasLimit: bigint; maxFeePerGas: bigint; cap: bigint; overheadGas: bigint }): number {
  const { items, gasLimit, maxFeePerGas, cap, overheadGas } = input;
  if (gasLimit * maxFeePerGas <= cap) return items;
  if (items <= 1 || maxFeePerGas <= 0n) return 0;
  const allowedGas = cap / maxFeePerGas;
  const overhead = overheadGas < gasLimit ? overheadGas : 0n;
  const perItem = (gasLimit - overhead + BigInt(items) - 1n) / BigInt(items);
  const fits = allowedGas > overhead && perItem > 0n ? Number((allowedGas - overhead) / perItem) : 0;
  return Math.max(1, Math.min(items - 1, fits));
}

/**
 * The items that leave with those given: an item that rides on another's authorization (a repeat
 * sweep of an account a first-time sweep in the same batch delegates) cannot stay without it, so
 * every item of an account leaves when one carrying its authorization does.
 */
export function withTheirAccounts(items: readonly SplitItem[], leaving: ReadonlySet<string>): Set<string> {
  const accounts = new Set(items.filter((i) => leaving.has(i.id) && i.withAuthorization).map((i) => i.account.toLowerCase()));
  return new Set(items.filter((i) => leaving.has(i.id) || accounts.has(i.account.toLowerCase())).map((i) => i.id));
}

/** The items past the first `keep` (in transaction order), with their accounts' riders. */
export function beyondPrefix(items: readonly SplitItem[], keep: number): Set<string> {
  return withTheirAccounts(items, new Set(items.slice(keep).map((i) => i.id)));
}

/**
 * The items to take out when the node says an authority of the transaction is reserved: those of
 * the accounts found with a transaction of their own in the pool (pending count above latest);
 * when none is found (the pool's view is not the endpoint's, or the transaction was only queued),
 * every item carrying an authorization, so the rest goes now and the first-time ones retry later.
 */
export function reservedItems(items: readonly SplitItem[], reservedAccounts: ReadonlySet<string>): Set<string> {
  const reserved = new Set([...reservedAccounts].map((a) => a.toLowerCase()));
  const found = items.filter((i) => i.withAuthorization && reserved.has(i.account.toLowerCase()));
  const leaving = found.length > 0 ? found : items.filter((i) => i.withAuthorization);
  return withTheirAccounts(items, new Set(leaving.map((i) => i.id)));
}
