import type { Db } from "@sweep/db";

/** The kinds that move the gas wallet's coin; fees, charges and credits are owed until a withdrawal pays them. */
export const WALLET_KINDS = ["gas", "withdrawal", "topup"] as const;

const movesWallet = (kind: string) => (WALLET_KINDS as readonly string[]).includes(kind);

export interface BookedEntry {
  id: bigint;
  chainId: number;
  kind: string;
  amount: bigint;
}

const byId = (a: BookedEntry, b: BookedEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Each entry's balance after it, from each chain's balance before the oldest of them (`before`) and
 * every wallet-moving entry from there on (`between`, which holds the listed ones of those kinds and
 * any a filter left out): balance after e = before + the wallet entries of its chain up to e.
 */
export function balancesAfter(listed: readonly BookedEntry[], before: ReadonlyMap<number, bigint>, between: readonly BookedEntry[]): Map<bigint, bigint> {
  const ascending = between.filter((e) => movesWallet(e.kind)).sort(byId);
  const targets = [...listed].sort(byId);
  const running = new Map(before);
  const after = new Map<bigint, bigint>();
  let next = 0;
  for (const entry of targets) {
    for (; next < ascending.length && ascending[next]!.id <= entry.id; next++) {
      const moved = ascending[next]!;
      running.set(moved.chainId, (running.get(moved.chainId) ?? 0n) + moved.amount);
    }
    after.set(entry.id, running.get(entry.chainId) ?? 0n);
  }
  return after;
}

/**
 * The gas wallet's balance by the ledger after each listed entry: one sum per chain of what came
 * before the oldest, and the wallet entries from it to the newest (a page's span, whatever it filtered).
 */
export async function readBalancesAfter(db: Db, partnerId: string, listed: readonly BookedEntry[]): Promise<Map<bigint, bigint>> {
  if (listed.length === 0) return new Map();
  const ids = listed.map((e) => e.id);
  const oldest = ids.reduce((a, b) => (a < b ? a : b));
  const newest = ids.reduce((a, b) => (a > b ? a : b));
  const chainIds = [...new Set(listed.map((e) => e.chainId))];
  const wallet = { partnerId, chainId: { in: chainIds }, kind: { in: [...WALLET_KINDS] } };
  const [sums, between] = await Promise.all([
    db.ledgerEntry.groupBy({ by: ["chainId"], where: { ...wallet, id: { lt: oldest } }, _sum: { amount: true } }),
    db.ledgerEntry.findMany({ where: { ...wallet, id: { gte: oldest, lte: newest } }, select: { id: true, chainId: true, kind: true, amount: true } }),
  ]);
  const before = new Map(sums.map(({ chainId, _sum }) => [chainId, BigInt(_sum.amount?.toFixed() ?? "0")]));
  return balancesAfter(listed, before, between.map((e) => ({ ...e, amount: BigInt(e.amount.toFixed()) })));
}
