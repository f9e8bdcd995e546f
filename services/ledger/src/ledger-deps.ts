import type { ChainTariff } from "@sweep/fees";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";

/** What the ledger's handlers work with; main.ts builds it, tests build their own. */
export interface LedgerDeps {
  db: Db;
  /** the topology's names, so outbox rows follow AMQP_PREFIX */
  names: QueueNames;
  /** the configured tariff of each served chain */
  tariffs: ReadonlyMap<number, ChainTariff>;
  /**
   * whether the address has code on the chain as of a block; throws when the chain does not answer,
   * or answers from a node that has not seen the block yet
   */
  hasCode(chainId: number, address: string, blockNumber: number): Promise<boolean>;
  maxAttempts: number;
  now(): Date;
  /** called after a transaction that wrote outbox rows committed, so they go out at once */
  outboxWritten(): void;
  /** called after a transaction's outcome was handled: the chain's reconciliation may now get past its block */
  transactionSettled?(chainId: number): void;
}

/** A large batch's settlement writes a few statements of hundreds of rows each: more room than Prisma's default 5 s on a loaded database. */
export const SETTLEMENT_TRANSACTION = { maxWait: 10_000, timeout: 60_000 } as const;
