import { ledgerKinds, type LedgerSummary, type LedgerSummaryQuery } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { createdWithin } from "./queries";
import { WALLET_KINDS } from "./running-balance";

type Kind = (typeof ledgerKinds)[number];

/**
 * GET /v1/ledger/summary: per chain of the environment (or the one asked), the wallet's balance by
 * the ledger before the period and at its end, and the period's sums by kind. Three grouped sums.
 */
export async function summarizeLedger(db: Db, partnerId: string, chainIds: readonly number[], query: LedgerSummaryQuery): Promise<LedgerSummary> {
  const chains = query.chain_id === undefined ? [...chainIds] : [query.chain_id];
  const ours = { partnerId, chainId: { in: chains } };
  const wallet = { ...ours, kind: { in: [...WALLET_KINDS] } };
  const [opening, closing, totals] = await Promise.all([
    query.created_after ? db.ledgerEntry.groupBy({ by: ["chainId"], where: { ...wallet, createdAt: { lt: new Date(query.created_after) } }, _sum: { amount: true } }) : [],
    db.ledgerEntry.groupBy({ by: ["chainId"], where: { ...wallet, ...(query.created_before && { createdAt: { lt: new Date(query.created_before) } }) }, _sum: { amount: true } }),
    db.ledgerEntry.groupBy({ by: ["chainId", "kind"], where: { ...ours, ...createdWithin(query) }, _sum: { amount: true }, _count: { _all: true } }),
  ]);
  const sumOf = (rows: ReadonlyArray<{ chainId: number; _sum: { amount: { toFixed(): string } | null } }>, chainId: number) => rows.find((r) => r.chainId === chainId)?._sum.amount?.toFixed() ?? "0";
  return {
    chains: chains.map((chainId) => {
      const ofChain = totals.filter((t) => t.chainId === chainId);
      const byKind = Object.fromEntries(ledgerKinds.map((kind: Kind) => [kind, ofChain.find((t) => t.kind === kind)?._sum.amount?.toFixed() ?? "0"])) as Record<Kind, string>;
      return {
        chain_id: chainId,
        opening_balance: sumOf(opening, chainId),
        closing_balance: sumOf(closing, chainId),
        totals: byKind,
        entries: ofChain.reduce((n, t) => n + t._count._all, 0),
      };
    }),
  };
}
