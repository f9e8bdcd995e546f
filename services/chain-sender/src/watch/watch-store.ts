import type { Db } from "@sweep/db";
import type { InFlightTransaction } from "../batch-types";
import type { GasWalletRow } from "../gas-wallet-signers";
import { confirmedNoncesFrom, gasWalletsById, inFlightTransactions } from "../transaction-store";

/** What the watcher reads of the stored transactions to decide; a unit test gives it a fake. */
export interface WatchStore {
  inFlightTransactions(chainId: number): Promise<InFlightTransaction[]>;
  gasWalletsById(ids: readonly string[]): Promise<GasWalletRow[]>;
  /** nonces of a gas wallet from `from` on whose transaction was settled as mined */
  confirmedNoncesFrom(chainId: number, gasWalletId: string, from: bigint): Promise<bigint[]>;
}

/** The watcher's reads, from the database. */
export function storedWatchReads(db: Db): WatchStore {
  return {
    inFlightTransactions: (chainId) => inFlightTransactions(db, chainId),
    gasWalletsById: (ids) => gasWalletsById(db, ids),
    confirmedNoncesFrom: (chainId, gasWalletId, from) => confirmedNoncesFrom(db, chainId, gasWalletId, from),
  };
}
