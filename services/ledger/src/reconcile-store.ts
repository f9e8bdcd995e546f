import type { Environment } from "@sweep/common";
import { toBigInt, toBigIntOrNull, toDecimal, type Db, type Prisma, type Tx } from "@sweep/db";
import { states, unfinishedStates } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { SETTLEMENT_TRANSACTION } from "./ledger-deps";
import { applyLowBalanceAlert } from "./low-balance";
import { explainedChange, firstUnbooked, topupDedupeKey, topupNote, type ChainMovingEntry, type Unbooked } from "./reconcile-rules";

/** A gas wallet with where its reconciliation on one chain stands (nothing reconciled yet: block null, balance 0). */
export interface ReconciledWallet {
  gasWalletId: string;
  partnerId: string;
  address: string;
  reconciledBlock: number | null;
  reconciledBalance: bigint;
  /** the block of its newest confirmed transaction on the chain (null: none), which the reconciliation must get past */
  lastMinedBlock: number | null;
}

interface ReconciledWalletRow {
  gasWalletId: string;
  partnerId: string;
  address: string;
  reconciledBlock: bigint | null;
  reconciledBalance: Prisma.Decimal | null;
  lastMinedBlock: bigint | null;
}

/**
 * Every gas wallet of the environment's partners (the same address on every chain), with its state on
 * the chain and its newest confirmed transaction's block: nonces are mined in order, so the
 * highest confirmed nonce's (one step back along the (chain, gas wallet, nonce) key) is the latest.
 */
export async function walletsToReconcile(db: Db, environment: Environment, chainId: number): Promise<ReconciledWallet[]> {
  const rows = await db.$queryRaw<ReconciledWalletRow[]>`
    SELECT w.id AS "gasWalletId", w.partner_id AS "partnerId", w.address,
           st.reconciled_block AS "reconciledBlock", st.reconciled_balance AS "reconciledBalance",
           mined.block_number AS "lastMinedBlock"
      FROM gas_wallets w
      JOIN partners p ON p.id = w.partner_id AND p.environment = ${environment}::"Environment"
      LEFT JOIN gas_wallet_chain_states st ON st.gas_wallet_id = w.id AND st.chain_id = ${chainId}
      LEFT JOIN LATERAL (SELECT t.block_number FROM chain_transactions t
                          WHERE t.chain_id = ${chainId} AND t.gas_wallet_id = w.id AND t.status = ${states.transaction.confirmed}::"TxStatus"
                          ORDER BY t.nonce DESC LIMIT 1) mined ON true
     ORDER BY w.created_at`;
  return rows.map((w) => ({
    gasWalletId: w.gasWalletId,
    partnerId: w.partnerId,
    address: w.address,
    reconciledBlock: w.reconciledBlock === null ? null : Number(w.reconciledBlock),
    reconciledBalance: toBigIntOrNull(w.reconciledBalance) ?? 0n,
    lastMinedBlock: w.lastMinedBlock === null ? null : Number(w.lastMinedBlock),
  }));
}

/** The gas, withdrawal and drain entries of the given transactions of the partner on the chain. */
export async function chainMovingEntries(db: Db | Tx, partnerId: string, chainId: number, hashes: string[]): Promise<ChainMovingEntry[]> {
  if (hashes.length === 0) return [];
  // Gas and drain entries through their unique key, withdrawals through the (partner, chain, kind) index.
  const rows = await db.ledgerEntry.findMany({
    where: {
      OR: [
        { dedupeKey: { in: hashes.flatMap((hash) => [`gas:${hash}`, `drain:${hash}`]) } },
        { partnerId, chainId, kind: "withdrawal", txHash: { in: hashes } },
      ],
    },
    select: { kind: true, txHash: true, amount: true },
  });
  return rows.map((r) => ({ kind: r.kind as ChainMovingEntry["kind"], txHash: r.txHash!, amount: toBigInt(r.amount) }));
}

/**
 * The first of the gas wallet's transactions below the chain's nonce count `belowNonce` that the
 * ledger has not booked. Transactions confirmed at or before the reconciled block were booked
 * before it was reconciled, so only later ones and those still in flight are looked at.
 */
export async function unbookedTransaction(db: Db, wallet: ReconciledWallet, chainId: number, belowNonce: bigint): Promise<Unbooked | null> {
  const rows = await db.chainTransaction.findMany({
    where: {
      chainId,
      gasWalletId: wallet.gasWalletId,
      nonce: { lt: belowNonce },
      OR: [
        { status: { in: unfinishedStates.transaction } },
        { status: states.transaction.confirmed, OR: [{ blockNumber: null }, { blockNumber: { gt: BigInt(wallet.reconciledBlock ?? -1) } }] },
      ],
    },
    select: { nonce: true, status: true, blockNumber: true, hash: true },
  });
  const confirmed = rows.filter((r) => r.status === states.transaction.confirmed).map((r) => r.hash);
  const booked = new Set((await chainMovingEntries(db, wallet.partnerId, chainId, confirmed)).map((e) => e.txHash));
  return firstUnbooked(
    rows.map((r) => ({
      nonce: r.nonce,
      status: r.status as "signed" | "broadcast" | "confirmed",
      blockNumber: r.blockNumber === null ? null : Number(r.blockNumber),
      booked: booked.has(r.hash),
    })),
  );
}

export interface Reconciliation {
  upTo: number;
  expected: bigint;
  /** actual − expected; zero books nothing */
  topup: bigint;
  note: string;
  /** a balance.low event was recorded */
  lowBalance: boolean;
}

/**
 * Books the reconciliation of (reconciled block, upTo]: the balance expected from the last
 * reconciled one and the gas and withdrawal entries of our transactions mined in those blocks, a
 * topup entry for what the chain shows beyond it, and the new reconciled block and balance. One
 * database transaction guarded by the reconciled block being unchanged: another instance or a
 * restart that got there first leaves this one with nothing to do (null), so no range is booked
 * twice and none is skipped; so does a transaction confirmed in the range and not booked yet. The
 * row is locked first, as bookGasBehindReconciliation locks it. The balance is also held against the partner's low-balance alert of
 * the chain in the same transaction, so a fall fires once however often it is read.
 */
export async function commitReconciliation(db: Db, names: QueueNames, wallet: ReconciledWallet, chainId: number, upTo: number, balance: bigint): Promise<Reconciliation | null> {
  const from = wallet.reconciledBlock;
  return db.$transaction(async (tx) => {
    // Held until commit: a restored transaction's gas booked meanwhile (bookGasBehindReconciliation) is either counted here or reversed there, never both.
    await tx.$executeRaw`SELECT 1 FROM gas_wallet_chain_states WHERE gas_wallet_id = ${wallet.gasWalletId}::uuid AND chain_id = ${chainId} FOR UPDATE`;
    const mined = await tx.chainTransaction.findMany({
      where: { chainId, gasWalletId: wallet.gasWalletId, status: states.transaction.confirmed, blockNumber: { gt: BigInt(from ?? -1), lte: BigInt(upTo) } },
      select: { hash: true },
    });
    const hashes = mined.map((t) => t.hash);
    const entries = await chainMovingEntries(tx, wallet.partnerId, chainId, hashes);
    // One confirmed in the range but not booked yet (given up when upTo was chosen, restored since) is explained by a later round.
    const booked = new Set(entries.map((e) => e.txHash));
    if (hashes.some((hash) => !booked.has(hash))) return null;
    const expected = wallet.reconciledBalance + explainedChange(hashes, entries);
    const topup = balance - expected;

    // The chain-sender writes next_nonce of the same row: only the reconciliation's columns are touched.
    await tx.gasWalletChainState.createMany({ data: [{ gasWalletId: wallet.gasWalletId, chainId }], skipDuplicates: true });
    const advanced = await tx.gasWalletChainState.updateMany({
      where: { gasWalletId: wallet.gasWalletId, chainId, reconciledBlock: from === null ? null : BigInt(from) },
      data: { reconciledBlock: BigInt(upTo), reconciledBalance: toDecimal(balance) },
    });
    if (advanced.count === 0) return null;

    const note = topupNote(from, upTo);
    if (topup !== 0n) {
      await tx.ledgerEntry.create({
        data: { partnerId: wallet.partnerId, chainId, kind: "topup", amount: toDecimal(topup), note, dedupeKey: topupDedupeKey(chainId, wallet.address, upTo) },
      });
    }
    const lowBalance = await applyLowBalanceAlert(tx, names, { partnerId: wallet.partnerId, chainId, gasWallet: wallet.address, balance });
    return { upTo, expected, topup, note, lowBalance };
  }, SETTLEMENT_TRANSACTION);
}
