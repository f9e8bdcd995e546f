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
  /** 0 for the first transaction of its nonce, then 1, 2, … for each one signed after it */
  replacement: number;
}

/** Everything a signed transaction carries but its fees: the replacements of one nonce share it. */
export function transactionContent(tx: Pick<StoredTransaction, "batchId" | "rawTx">): string {
  const signed = Transaction.from(tx.rawTx);
  const authorizations = (signed.authorizationList ?? []).map((a) => [a.address, a.nonce.toString(), a.chainId.toString(), a.signature.r, a.signature.s]);
  return JSON.stringify([tx.batchId, signed.chainId.toString(), signed.to, signed.data, signed.value.toString(), authorizations]);
}

const nonceKey = (tx: Pick<StoredTransaction, "gasWalletId" | "chainId" | "nonce">) => `${tx.gasWalletId}/${tx.chainId}/${tx.nonce}`;

function byNonce<T extends StoredTransaction>(transactions: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const tx of transactions) groups.set(nonceKey(tx), [...(groups.get(nonceKey(tx)) ?? []), tx]);
  for (const group of groups.values()) group.sort((a, b) => a.replacement - b.replacement);
  return groups;
}

/** Both fees of a signed transaction, wei per gas. */
function feesOf(rawTx: string): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const signed = Transaction.from(rawTx);
  return { maxFeePerGas: signed.maxFeePerGas ?? signed.gasPrice ?? 0n, maxPriorityFeePerGas: signed.maxPriorityFeePerGas ?? signed.gasPrice ?? 0n };
}

/**
 * Per gas wallet, chain and nonce, every stored transaction carries one content, signed at that
 * nonce; and each replacement offers both fees at least 10% above every transaction before it at
 * its nonce, as a node requires of a replacement (else the stuck one could never be displaced).
 */
export function nonceConflicts(transactions: readonly StoredTransaction[]): string[] {
  const breaches: string[] = [];
  for (const [key, group] of byNonce(transactions)) {
    const contents = new Set(group.map(transactionContent));
    if (contents.size > 1) breaches.push(`nonce ${key} carries ${contents.size} different transactions: ${group.map((t) => `${t.hash} (${t.status})`).join(", ")}`);
    for (const tx of group) {
      const signedNonce = BigInt(Transaction.from(tx.rawTx).nonce);
      if (signedNonce !== tx.nonce) breaches.push(`${tx.hash} is stored at nonce ${key} but signed at ${signedNonce}`);
    }
    for (let i = 1; i < group.length; i++) {
      const fees = feesOf(group[i]!.rawTx);
      const outbid = group.slice(0, i).map((t) => feesOf(t.rawTx));
      const enough = (offered: bigint, before: bigint) => offered * 10n >= before * 11n;
      if (!outbid.every((before) => enough(fees.maxFeePerGas, before.maxFeePerGas) && enough(fees.maxPriorityFeePerGas, before.maxPriorityFeePerGas))) {
        breaches.push(`${group[i]!.hash} replaces at nonce ${key} without outbidding every transaction before it by 10%`);
      }
    }
  }
  return breaches;
}

/** The stored transactions that replaced an earlier one of their nonce with the same content (a stuck transaction re-signed at higher fees). */
export function replacementsOf<T extends StoredTransaction>(transactions: readonly T[]): T[] {
  return [...byNonce(transactions).values()].flatMap((group) => group.slice(1).filter((tx) => transactionContent(tx) === transactionContent(group[0]!)));
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

/** A withdrawal batch as stored, with every transaction signed for it. */
export interface StoredWithdrawal {
  batchId: string;
  status: string;
  transactions: Array<{
    hash: string;
    status: string;
    rawTx: string;
    succeeded: boolean | null;
    /** gas used × effective gas price, from its receipt; null before it is mined */
    gasCost: bigint | null;
  }>;
}

/** A ledger entry that names a transaction. */
export interface TransactionEntry {
  kind: string;
  txHash: string | null;
  amount: bigint;
}

/**
 * Each withdrawal ended—confirmed (with one mined transaction, or none when nothing was left to
 * send) or failed (with none)—and each mined one is booked once: one withdrawal entry of
 * −(value + gas) when it went through, one gas entry and no withdrawal when its receipt failed. No
 * withdrawal entry names any other transaction.
 */
export function withdrawalBreaches(withdrawals: readonly StoredWithdrawal[], entries: readonly TransactionEntry[]): string[] {
  const breaches: string[] = [];
  const booked = (kind: string, hash: string) => entries.filter((e) => e.kind === kind && e.txHash?.toLowerCase() === hash.toLowerCase());
  const minedHashes = new Set<string>();
  for (const { batchId, status, transactions } of withdrawals) {
    const mined = transactions.filter((t) => t.status === "confirmed");
    if (status !== "confirmed" && status !== "failed") breaches.push(`withdrawal ${batchId} is still ${status}`);
    else if (mined.length > 1) breaches.push(`withdrawal ${batchId} has ${mined.length} confirmed transactions`);
    else if (status === "failed" && mined.length > 0) breaches.push(`withdrawal ${batchId} failed, yet ${mined[0]!.hash} is confirmed`);
    else if (status === "confirmed" && mined.length === 0 && transactions.length > 0) breaches.push(`withdrawal ${batchId} is confirmed with none of its ${transactions.length} transactions mined`);
    for (const tx of mined) {
      minedHashes.add(tx.hash.toLowerCase());
      if (tx.gasCost === null) {
        breaches.push(`withdrawal ${batchId}: ${tx.hash} is confirmed without its gas`);
        continue;
      }
      const value = Transaction.from(tx.rawTx).value;
      const expected = tx.succeeded ? { withdrawal: [-(value + tx.gasCost)], gas: [] } : { withdrawal: [], gas: [-tx.gasCost] };
      const found = { withdrawal: booked("withdrawal", tx.hash).map((e) => e.amount), gas: booked("gas", tx.hash).map((e) => e.amount) };
      const same = (a: bigint[], b: bigint[]) => a.length === b.length && a.every((amount, i) => amount === b[i]);
      if (!same(found.withdrawal, expected.withdrawal) || !same(found.gas, expected.gas)) {
        const show = (amounts: bigint[]) => `[${amounts.join(", ")}]`;
        breaches.push(`withdrawal ${batchId}: ${tx.hash} booked withdrawal ${show(found.withdrawal)} and gas ${show(found.gas)}, expected withdrawal ${show(expected.withdrawal)} and gas ${show(expected.gas)}`);
      }
    }
  }
  for (const entry of entries) {
    if (entry.kind === "withdrawal" && !minedHashes.has(entry.txHash?.toLowerCase() ?? "")) breaches.push(`a withdrawal entry of ${entry.amount} names ${entry.txHash}, no mined withdrawal`);
  }
  return breaches;
}

/** A low-balance alert as the partner set it. */
export interface LowBalanceAlert {
  partnerId: string;
  chainId: number;
  threshold: bigint;
}

/** A stored event, its payload as recorded. */
export interface RecordedEvent {
  partnerId: string;
  type: string;
  payload: unknown;
}

/**
 * A gas wallet that fell below its alert and never recovered (nothing tops it up): exactly one
 * balance.low of that partner and chain, naming the threshold set and a balance below it.
 */
export function lowBalanceBreaches(alert: LowBalanceAlert, events: readonly RecordedEvent[]): string[] {
  const fired = events.filter((e) => e.type === "balance.low" && e.partnerId === alert.partnerId && (e.payload as { chain_id?: unknown } | null)?.chain_id === alert.chainId);
  const where = `partner ${alert.partnerId} on chain ${alert.chainId}`;
  if (fired.length !== 1) return [`${where}: ${fired.length} balance.low events for one fall below ${alert.threshold}`];
  const { threshold, balance } = fired[0]!.payload as { threshold?: string; balance?: string };
  if (threshold !== alert.threshold.toString()) return [`${where}: balance.low names threshold ${threshold}, the alert's is ${alert.threshold}`];
  if (balance === undefined || !/^\d+$/.test(balance) || BigInt(balance) >= alert.threshold) return [`${where}: balance.low names balance ${balance}, not below ${alert.threshold}`];
  return [];
}
