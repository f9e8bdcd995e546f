/**
 * What must hold after a run whatever faults it went through, as plain functions of what the
 * database stored and what the chain shows: each returns the breaches it finds, empty when none.
 */
import { Transaction } from "ethers";

export interface StoredTransaction {
  gasWalletId: string;
  chainId: number;
  nonce: bigint;
  hash: string;
  status: string;
  batchId: string | null;
  rawTx: string;
}

/** Everything a signed transaction carries but its fees: the replacements of one nonce share it. */
export function transactionContent(tx: Pick<StoredTransaction, "batchId" | "rawTx">): string {
  const signed = Transaction.from(tx.rawTx);
  const authorizations = (signed.authorizationList ?? []).map((a) => [a.address, a.nonce.toString(), a.chainId.toString(), a.signature.r, a.signature.s]);
  return JSON.stringify([tx.batchId, signed.chainId.toString(), signed.to, signed.data, signed.value.toString(), authorizations]);
}

const nonceKey = (tx: Pick<StoredTransaction, "gasWalletId" | "chainId" | "nonce">) => `${tx.gasWalletId}/${tx.chainId}/${tx.nonce}`;

/** Per gas wallet, chain and nonce, every stored transaction (replacements included) carries one content, signed at that nonce. */
export function nonceConflicts(transactions: readonly StoredTransaction[]): string[] {
  const byNonce = new Map<string, StoredTransaction[]>();
  for (const tx of transactions) byNonce.set(nonceKey(tx), [...(byNonce.get(nonceKey(tx)) ?? []), tx]);
  const breaches: string[] = [];
  for (const [key, group] of byNonce) {
    const contents = new Set(group.map(transactionContent));
    if (contents.size > 1) breaches.push(`nonce ${key} carries ${contents.size} different transactions: ${group.map((t) => `${t.hash} (${t.status})`).join(", ")}`);
    for (const tx of group) {
      const signedNonce = BigInt(Transaction.from(tx.rawTx).nonce);
      if (signedNonce !== tx.nonce) breaches.push(`${tx.hash} is stored at nonce ${key} but signed at ${signedNonce}`);
    }
  }
  return breaches;
}

/**
 * One gas wallet on one chain: each nonce the chain counted was taken by one of our stored
 * transactions, the one stored as confirmed; no other stored transaction is confirmed.
 * `mined` holds the stored hashes that have a receipt.
 */
export function minedNonceBreaches(transactions: readonly StoredTransaction[], chainNonce: number, mined: ReadonlySet<string>): string[] {
  const breaches: string[] = [];
  for (let nonce = 0n; nonce < BigInt(chainNonce); nonce++) {
    const atNonce = transactions.filter((t) => t.nonce === nonce);
    const minedHere = atNonce.filter((t) => mined.has(t.hash));
    if (minedHere.length === 0) breaches.push(`nonce ${nonce} was mined with a transaction never stored (stored: ${atNonce.map((t) => t.hash).join(", ") || "none"})`);
    for (const tx of minedHere) if (tx.status !== "confirmed") breaches.push(`nonce ${nonce} was mined as ${tx.hash}, stored as ${tx.status}`);
  }
  for (const tx of transactions) {
    if (tx.status === "confirmed" && !mined.has(tx.hash)) breaches.push(`${tx.hash} (nonce ${tx.nonce}) is stored as confirmed but has no receipt`);
    if (tx.nonce >= BigInt(chainNonce) && (tx.status === "signed" || tx.status === "broadcast")) breaches.push(`${tx.hash} (nonce ${tx.nonce}) is still ${tx.status}`);
  }
  return breaches;
}

export interface SweptSweep {
  id: string;
  account: string;
  txHash: string;
  amount: bigint;
}

/** A delegate's Swept event: an item that moved funds to the hot wallet. */
export interface SweptEvent {
  account: string;
  txHash: string;
  amount: bigint;
}

export interface SweepMatch {
  /** Swept events on chain that no swept sweep accounts for: a deposit swept twice (or by something unknown) */
  doubles: SweptEvent[];
  /** sweeps stored as swept whose Swept event is not on chain */
  missing: SweptSweep[];
}

/** Pairs each swept sweep with the Swept event of its account in its transaction, of its amount. */
export function matchSweeps(sweeps: readonly SweptSweep[], events: readonly SweptEvent[]): SweepMatch {
  const key = (x: { account: string; txHash: string; amount: bigint }) => `${x.account.toLowerCase()}/${x.txHash.toLowerCase()}/${x.amount}`;
  const unmatched = new Map<string, SweptEvent[]>();
  for (const e of events) unmatched.set(key(e), [...(unmatched.get(key(e)) ?? []), e]);
  const missing: SweptSweep[] = [];
  for (const sweep of sweeps) {
    const candidates = unmatched.get(key(sweep));
    if (candidates && candidates.length > 0) candidates.pop();
    else missing.push(sweep);
  }
  return { doubles: [...unmatched.values()].flat(), missing };
}

export interface DeliveredEvent {
  id: string;
  type: string;
  /** the delivery's status, undefined when no delivery was opened */
  delivery?: string;
}

/** Every event has a delivery marked delivered, and the receiver saw its id with a valid signature. */
export function deliveryBreaches(events: readonly DeliveredEvent[], receivedVerified: ReadonlySet<string>): string[] {
  const breaches: string[] = [];
  for (const event of events) {
    if (event.delivery !== "delivered") breaches.push(`${event.type} ${event.id}: delivery ${event.delivery ?? "never opened"}`);
    else if (!receivedVerified.has(event.id)) breaches.push(`${event.type} ${event.id}: marked delivered, never received with a valid signature`);
  }
  return breaches;
}
