import { DEFAULT_TX_FEE_CAP } from "@sweep/fees";
import type { ChainProvider } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { AccountState } from "./pre-send-checks";
import type { ChainView } from "./batch-plan";
import { readChainSnapshot, type ChainReads, type ReadBatching, type SnapshotBlock } from "./chain-reads";
import { plannedGasBudget } from "./gas-budget";
import { settledHead } from "./settled-head";

/**
 * Claims that find work which arrived during the chain reads read that too and try again, this
 * many times at most; then the latecomers wait for the next batch.
 */
export const READ_PASSES = 3;

export interface ReadContext {
  db: Db;
  provider: ChainProvider;
  chainId: number;
  reads: ReadBatching;
  gasMarginBps: number;
  /** the chain's `TX_FEE_CAP_<id>` (default one coin) */
  txFeeCap?: bigint;
  logger: Logger;
  /** what arrives during the reads, for the log: "sweeps" or "revocations" */
  noun: string;
}

/** A claim's answer: its result, or what it found unread (only before the last pass). */
export type ClaimPass<R> = { result: R } | { unread: ChainReads };

/**
 * Reads the chain outside the claim's transaction, so no lock waits on a node, then claims against
 * everything read so far; the claim re-checks all it depends on. The first pass reads what `first`
 * asks for under the gas budget of the block read (a batch's worth), later passes what the claim
 * named unread. Null when the node does not answer: nothing is rejected then, and the poll tries again.
 */
export async function readThenClaim<R>(
  ctx: ReadContext,
  first: (gasBudget: bigint) => ChainReads,
  claim: (view: ChainView, gasBudget: bigint, lastPass: boolean) => Promise<ClaimPass<R>>,
): Promise<{ result: R; blockNumber: number } | null> {
  const view = { accounts: new Map<string, AccountState>(), tokenBalances: new Map<string, bigint>() } satisfies ChainView;
  let gasBudget: bigint | undefined;
  let toRead = (block: SnapshotBlock): ChainReads => {
    gasBudget = plannedGasBudget({ gasLimit: block.blockGasLimit, baseFee: block.baseFee }, ctx.txFeeCap ?? DEFAULT_TX_FEE_CAP, ctx.gasMarginBps);
    return first(gasBudget);
  };
  for (let pass = 1; ; pass++) {
    const snapshot = await readChainSnapshot(ctx.provider, toRead, ctx.reads, await settledHead(ctx.db, ctx.chainId)).catch((err: unknown) => {
      ctx.logger.warn("chain unavailable during the checks; nothing rejected, retried later", { error: err instanceof Error ? err.message : String(err), pass });
      return null;
    });
    if (snapshot === null || gasBudget === undefined) return null;
    snapshot.accounts.forEach((state, key) => view.accounts.set(key, state));
    snapshot.tokenBalances.forEach((balance, key) => view.tokenBalances.set(key, balance));

    const claimed = await claim(view, gasBudget, pass === READ_PASSES);
    if ("result" in claimed) return { result: claimed.result, blockNumber: snapshot.blockNumber };
    ctx.logger.debug(`${ctx.noun} unread that may still fit the batch (arrived during the reads, or room left); reading them too`, { accounts: claimed.unread.accounts.length, pass });
    const unread = claimed.unread;
    toRead = () => unread;
  }
}
