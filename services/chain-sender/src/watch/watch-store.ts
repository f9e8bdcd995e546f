import type { Db } from "@sweep/db";
import { states, unfinishedStates } from "@sweep/lifecycle";
import type { InFlightTransaction } from "../batch-types";
import type { GasWalletRow } from "../gas-wallet-signers";
import { confirmedNoncesFrom, gasWalletsById, inFlightTransactions } from "../transaction-store";

/**
 * Which of the watcher's kinds of transactions the chain has, from block `from` on where a kind is
 * watched within the reorg window: a round reads only those (at rest, this one query).
 */
export interface WatchPresence {
  /** signed or broadcast */
  inFlight: boolean;
  /** settled (confirmed, not known to have left the chain) in a block from `from` on */
  settled: boolean;
  /** out of the chain after it was settled, followed until restored or lost */
  reorged: boolean;
  /** given up at a block from `from` on, looked for on chain */
  givenUp: boolean;
}

/** What the watcher reads of the stored transactions to decide; a unit test gives it a fake. */
export interface WatchStore {
  /** `from` may be lower than the round's window (a head seen before): a kind is then at worst read for nothing */
  presence(chainId: number, from: number): Promise<WatchPresence>;
  inFlightTransactions(chainId: number): Promise<InFlightTransaction[]>;
  gasWalletsById(ids: readonly string[]): Promise<GasWalletRow[]>;
  /** nonces of a gas wallet from `from` on whose transaction was settled as mined */
  confirmedNoncesFrom(chainId: number, gasWalletId: string, from: bigint): Promise<bigint[]>;
}

/** The watcher's reads, from the database. */
export function storedWatchReads(db: Db): WatchStore {
  return {
    presence: (chainId, from) => watchPresence(db, chainId, from),
    inFlightTransactions: (chainId) => inFlightTransactions(db, chainId),
    gasWalletsById: (ids) => gasWalletsById(db, ids),
    confirmedNoncesFrom: (chainId, gasWalletId, from) => confirmedNoncesFrom(db, chainId, gasWalletId, from),
  };
}

/** One statement over the (chain_id, status), (chain_id, block_number) and (chain_id, reorg) indexes. */
export async function watchPresence(db: Db, chainId: number, from: number): Promise<WatchPresence> {
  const [row] = await db.$queryRaw<WatchPresence[]>`
    SELECT EXISTS (SELECT 1 FROM chain_transactions WHERE chain_id = ${chainId} AND status = ANY(${unfinishedStates.transaction}::"TxStatus"[])) AS "inFlight",
           EXISTS (SELECT 1 FROM chain_transactions WHERE chain_id = ${chainId} AND status = ${states.transaction.confirmed}::"TxStatus" AND reorg IS NULL
                      AND block_hash IS NOT NULL AND block_number >= ${BigInt(from)}) AS settled,
           EXISTS (SELECT 1 FROM chain_transactions WHERE chain_id = ${chainId} AND reorg = ${states.reorg.reorged}::"TxReorg") AS reorged,
           EXISTS (SELECT 1 FROM chain_transactions WHERE chain_id = ${chainId} AND status = ${states.transaction.dropped}::"TxStatus"
                      AND abandoned_at_block >= ${BigInt(from)}) AS "givenUp"`;
  return row!;
}
