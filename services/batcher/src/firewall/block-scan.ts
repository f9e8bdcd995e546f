import { ZeroAddress } from "ethers";

/**
 * The delegation firewall's verdict on one block, pure: which of a block's transactions touch the
 * deposit-address inventory as no sweep of the service would. The block's cost, not the
 * inventory's: each transaction's sender and authorities are looked up, nothing else.
 */

/** A transaction as the firewall reads it. */
export interface WatchedTransaction {
  hash: string;
  /** EIP-55 */
  from: string;
  /** a type-4 transaction's authorizations, in order, each with the authority it recovers to (null: no key signed it) */
  authorizations: ReadonlyArray<{ authority: string | null; chainId: bigint; address: string }>;
}

/** A deposit address of one partner, as the inventory holds it. */
export interface InventoryEntry {
  partnerId: string;
  /** EIP-55 */
  address: string;
  /** the delegate the inventory last knew it running or authorized for (the event's old_delegate) */
  delegate: string | null;
  /** the partner's delegates on the chain (every hot wallet's), EIP-55 */
  delegates: ReadonlySet<string>;
  /** the partner's gas wallet, which sends its sweeps and revocations */
  gasWallet: string;
}

export type FirewallHit =
  /** the address's delegation now points elsewhere than the partner's delegates (the zero address: taken back by another sender than the partner's gas wallet) */
  | { kind: "delegation_changed"; entry: InventoryEntry; txHash: string; sender: string; target: string }
  /** the address sent a transaction itself: its key is used outside the service */
  | { kind: "activity"; entry: InventoryEntry; txHash: string };

/**
 * The candidate hits of a block's transactions against the inventory (`entriesOf` an address: one
 * entry per partner that holds it). An authorization counts when it is for this chain or any chain
 * (0). Every foreign target of an authority is a candidate, not only the last one in its list: the
 * chain skips an authorization whose nonce is wrong, so a stale one of the partner's delegate after a
 * drainer's leaves the drainer in force. Which one the chain applied is the caller's check (the
 * authority's code after the block).
 */
export function scanBlock(chainId: number, transactions: readonly WatchedTransaction[], entriesOf: (address: string) => readonly InventoryEntry[]): FirewallHit[] {
  const hits: FirewallHit[] = [];
  for (const transaction of transactions) {
    const seen = new Set<string>();
    for (const { authority, chainId: signedFor, address: target } of transaction.authorizations) {
      if (authority === null || (signedFor !== 0n && signedFor !== BigInt(chainId)) || seen.has(`${authority}:${target}`)) continue;
      seen.add(`${authority}:${target}`);
      for (const entry of entriesOf(authority)) {
        if (!isForeign(entry, target, transaction.from)) continue;
        hits.push({ kind: "delegation_changed", entry, txHash: transaction.hash, sender: transaction.from, target });
      }
    }
    for (const entry of entriesOf(transaction.from)) hits.push({ kind: "activity", entry, txHash: transaction.hash });
  }
  return hits;
}

/** A delegation to one of the partner's delegates is the service's own; so is a revocation its gas wallet sends. */
function isForeign(entry: InventoryEntry, target: string, sender: string): boolean {
  if (entry.delegates.has(target)) return false;
  return !(target === ZeroAddress && sender === entry.gasWallet);
}
