import type { Db } from "@sweep/db";
import { eventually } from "./stack";
import type { TestChain } from "./test-chains";

type LedgerKind = "gas" | "fee" | "fee_charge" | "fee_credit" | "withdrawal" | "topup";

export interface SettledGasWallet {
  address: string;
  /** on chain, unchanged since the block the ledger is reconciled to */
  balance: bigint;
  reconciledBlock: number;
  /** the sum of the partner's ledger entries on the chain, by kind (0 for a kind without any) */
  entries: Record<LedgerKind, bigint>;
}

/**
 * Waits until a partner's gas wallet is at rest on a chain—none of its transactions signed or
 * broadcast, the ledger's reconciliation past the last mined one (so each is booked) and within a
 * block of the chain's confirmation depth (`confirmations`, as the services were given it), and
 * nothing moved the balance since—then returns that balance and the sums of the ledger's entries.
 * The money invariant reads: gas + withdrawal + topup = balance.
 */
export function settledGasWallet(db: Db, chain: TestChain, partnerId: string, timeoutMs = 60_000, confirmations = 1): Promise<SettledGasWallet> {
  const chainId = chain.chainId;
  return eventually(
    `the gas wallet of partner ${partnerId} at rest on chain ${chainId}`,
    async () => {
      const wallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId } });
      const ours = { chainId, gasWalletId: wallet.id };
      if ((await db.chainTransaction.count({ where: { ...ours, status: { in: ["signed", "broadcast"] } } })) > 0) return undefined;
      const lastMined = (await db.chainTransaction.aggregate({ where: { ...ours, status: "confirmed" }, _max: { blockNumber: true } }))._max.blockNumber;
      const state = await db.gasWalletChainState.findUnique({ where: { gasWalletId_chainId: { gasWalletId: wallet.id, chainId } } });
      if (state?.reconciledBlock === null || state?.reconciledBlock === undefined) return undefined;
      const reconciledBlock = Number(state.reconciledBlock);
      if (reconciledBlock < Number(lastMined ?? 0n) || reconciledBlock < (await chain.provider.getBlockNumber()) - confirmations) return undefined;
      const balance = await chain.provider.getBalance(wallet.address);
      if (balance !== (await chain.provider.getBalance(wallet.address, reconciledBlock))) return undefined;
      const sums = await db.ledgerEntry.groupBy({ by: ["kind"], where: { partnerId, chainId }, _sum: { amount: true } });
      const entries: Record<LedgerKind, bigint> = { gas: 0n, fee: 0n, fee_charge: 0n, fee_credit: 0n, withdrawal: 0n, topup: 0n };
      for (const { kind, _sum } of sums) entries[kind] = BigInt(_sum.amount?.toFixed() ?? "0");
      return { address: wallet.address, balance, reconciledBlock, entries };
    },
    timeoutMs,
    500,
  );
}
