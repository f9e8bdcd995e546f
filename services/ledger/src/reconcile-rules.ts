/**
 * The rules of balance reconciliation, free of the database and the node: which block a gas
 * wallet's balance can be explained up to, what the ledger explains of it, and how a top-up is named.
 */


/**
 * Whether a round reads a gas wallet's balance: in a full pass every wallet is read (a partner's
 * top-up is a transfer we do not see); otherwise only one never reconciled on the chain, or with a
 * transaction of ours confirmed past its reconciled block (gas spent, fees withdrawn, a drain), so
 * the ledger's own movements and the low-balance alert they trip are reconciled within a round.
 */
export function needsReconciling(wallet: { reconciledBlock: number | null; lastMinedBlock: number | null }, fullPass: boolean): boolean {
  if (fullPass || wallet.reconciledBlock === null) return true;
  return wallet.lastMinedBlock !== null && wallet.lastMinedBlock > wallet.reconciledBlock;
}

/** A round's pause: RECONCILE_INTERVAL_MS when set, else the chain's block time but at most one round a second (BSC's 0.45 s blocks hold nothing worth a database query each). */
export function reconcileIntervalMs(configured: number | undefined, blockTimeMs: number): number {
  return configured ?? Math.max(1_000, blockTimeMs);
}

/** Whether this round is a full pass: the first of a process, then one each `fullPassMs`. */
export function fullPassDue(lastFullPassAt: number | undefined, now: number, fullPassMs: number): boolean {
  return lastFullPassAt === undefined || now - lastFullPassAt >= fullPassMs;
}

/** A stored transaction of the gas wallet below the chain's nonce count, with what the ledger knows of it. */
export interface MinedCandidate {
  nonce: bigint;
  status: "signed" | "broadcast" | "confirmed";
  blockNumber: number | null;
  /** its gas or withdrawal entry is booked */
  booked: boolean;
}

/** The first nonce mined on chain that the ledger has not booked, and its block when the watcher has confirmed it. */
export interface Unbooked {
  nonce: bigint;
  blockNumber: number | null;
}

/**
 * Of the stored transactions at nonces the chain has counted (each nonce is mined exactly once),
 * the lowest nonce without a confirmed and booked transaction. A nonce whose transactions were all
 * replaced or dropped was taken by another transaction: the caller leaves those out, and the
 * balance change is then not ours to explain.
 */
export function firstUnbooked(candidates: readonly MinedCandidate[]): Unbooked | null {
  const byNonce = new Map<bigint, MinedCandidate[]>();
  for (const c of candidates) byNonce.set(c.nonce, [...(byNonce.get(c.nonce) ?? []), c]);
  const pending = [...byNonce.entries()]
    .filter(([, group]) => !group.some((c) => c.status === "confirmed" && c.blockNumber !== null && c.booked))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (pending.length === 0) return null;
  const [nonce, group] = pending[0]!;
  const mined = group.find((c) => c.status === "confirmed" && c.blockNumber !== null);
  return { nonce, blockNumber: mined?.blockNumber ?? null };
}

/**
 * The block to reconcile up to: the final block, but before the first of our transactions the
 * ledger has not booked (nonces are mined in order, so every later one is mined in or after that
 * block). Null when there is nothing new past `reconciled`, or when that transaction's block is not
 * known yet (the watcher has not confirmed it): the next round tries again.
 */
export function reconcileUpTo(final: number, reconciled: number | null, unbooked: Unbooked | null): number | null {
  if (unbooked !== null && unbooked.blockNumber === null) return null;
  const upTo = unbooked === null ? final : Math.min(final, unbooked.blockNumber! - 1);
  return upTo > (reconciled ?? -1) ? upTo : null;
}

/** The blocks a reconciliation covers: from the one after the last reconciled (the first starts at 0). */
export function topupNote(reconciled: number | null, upTo: number): string {
  return `blocks ${(reconciled ?? -1) + 1}-${upTo}`;
}

export function topupDedupeKey(chainId: number, gasWallet: string, upTo: number): string {
  return `topup:${chainId}:${gasWallet}:${upTo}`;
}

export interface ChainMovingEntry {
  /** a topup of one of our transactions is the value a drain sent away */
  kind: "gas" | "withdrawal" | "topup";
  txHash: string;
  amount: bigint;
}

/**
 * What the ledger explains of the balance change from the given transactions: a transaction with
 * withdrawal entries moved their amount (value and gas together), any other its gas entry and, a
 * drain, the value it sent away. Fee, charge and credit entries move nothing on chain and are
 * never passed here.
 */
export function explainedChange(hashes: readonly string[], entries: readonly ChainMovingEntry[]): bigint {
  const byHash = new Map<string, ChainMovingEntry[]>();
  for (const e of entries) byHash.set(e.txHash, [...(byHash.get(e.txHash) ?? []), e]);
  let sum = 0n;
  for (const hash of new Set(hashes)) {
    const own = byHash.get(hash) ?? [];
    const withdrawals = own.filter((e) => e.kind === "withdrawal");
    for (const e of withdrawals.length > 0 ? withdrawals : own) sum += e.amount;
  }
  return sum;
}
