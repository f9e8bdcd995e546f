import { capInRefusal } from "@sweep/fees";
import type { ChainClient } from "@sweep/rpc";
import type { Db, Tx } from "@sweep/db";
import { changeBatch, changeTransactions, returnToQueue, storeTransaction } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { PendingMetrics } from "@sweep/metrics";
import { Transaction } from "ethers";
import { stagesOf } from "../batch-purposes";
import type { Attempt, BatchToSend, LeftOut, RevocationBatchToSend, StoredTransaction, SweepBatchToSend } from "../batch-types";
import { beyondPrefix, itemsWithinCap, reservedItems, type SplitItem } from "./batch-split";
import { gasLimitFromEstimate, gasLimitFromSimulation } from "./gas-limit";
import { GAS_PRICE_HOLD_PAUSE_MS, WAITING_FOR_GAS_PRICE } from "./new-transaction-hold";
import { transactionData } from "../transaction-store";

/**
 * The chain-sender's side of splitting a batch (batch-split.ts decides which items leave): the
 * items of a batch as the split sees them, the batch without some, the items sent back to the
 * queue, and a transaction the node refused replaced at its nonce by a smaller one.
 */

/**
 * An account with a transaction of its own in the pool has it mined within a block or two (its
 * authorization then goes stale and the batcher rejects it) or dropped: its items wait about an
 * Ethereum block before they are tried again. Items left out for the fee cap are due at once.
 */
export const RESERVED_AUTHORITY_PAUSE_MS = 12_000;

type SplittableBatch = SweepBatchToSend | RevocationBatchToSend;

export function isSplittable(batch: BatchToSend): batch is SplittableBatch {
  return batch.purpose === "sweep" || batch.purpose === "revocation";
}

/** A sweep or revocation batch's items in transaction order; none for the other purposes. */
export function splitItemsOf(batch: BatchToSend): SplitItem[] {
  if (batch.purpose === "sweep") return [...batch.items].sort((a, b) => a.position - b.position).map((i) => ({ id: i.sweepId, account: i.sweep.account, withAuthorization: i.withAuthorization }));
  if (batch.purpose === "revocation") return [...batch.items].sort((a, b) => a.position - b.position).map((i) => ({ id: i.revocationId, account: i.account, withAuthorization: true }));
  return [];
}

/** The batch without the given items (sweep and revocation batches; the others have none). */
export function withoutItems<B extends BatchToSend>(batch: B, ids: ReadonlySet<string>): B {
  if (ids.size === 0) return batch;
  if (batch.purpose === "sweep") return { ...batch, items: batch.items.filter((i) => !ids.has(i.sweepId)) };
  if (batch.purpose === "revocation") return { ...batch, items: batch.items.filter((i) => !ids.has(i.revocationId)) };
  return batch;
}

/** The part of a batch's gas limit no item pays for: the base and, for a sweep, the delegate's reserve, with the sender's headroom. */
export function overheadGas(batch: BatchToSend, marginBps: number, blockGasLimit: bigint): bigint {
  return batch.purpose === "sweep" ? gasLimitFromSimulation(21_000n, marginBps, blockGasLimit) : gasLimitFromEstimate(21_000n, marginBps, blockGasLimit);
}

/**
 * Whether a transaction of the batch (its items but `excluded`) fits the cap at this gas limit and
 * max fee: "fits", the items to leave out, or "too_big" when not even one item fits (or the batch
 * has no items to leave out).
 */
export function fitCap(
  batch: BatchToSend,
  excluded: ReadonlySet<string>,
  sending: { gasLimit: bigint; maxFeePerGas: bigint; cap: bigint; marginBps: number; blockGasLimit: bigint },
): "fits" | "too_big" | Set<string> {
  if (sending.gasLimit * sending.maxFeePerGas <= sending.cap) return "fits";
  const items = splitItemsOf(batch).filter((i) => !excluded.has(i.id));
  const keep = itemsWithinCap({ items: items.length, gasLimit: sending.gasLimit, maxFeePerGas: sending.maxFeePerGas, cap: sending.cap, overheadGas: overheadGas(batch, sending.marginBps, sending.blockGasLimit) });
  if (keep === 0) return "too_big";
  const leaving = beyondPrefix(items, keep);
  // A carrier's riders leaving with it may empty the prefix's rest: at least one item always leaves.
  return leaving.size > 0 && leaving.size < items.length ? leaving : "too_big";
}

/**
 * The cap a batch the node refused for its fee cap must get under: the node's own when its words
 * say it (rounded to two decimals, a small cap reads "0.00"), else what half its items would cost
 * at the refused transaction's gas and max fee, so that each refusal halves the batch at least.
 */
export function capAfterRefusal(configured: bigint, refused: { rawTx: string; items: number; overheadGas: bigint }, message: string): bigint {
  const node = capInRefusal(message);
  const tx = Transaction.from(refused.rawTx);
  const maxFee = tx.maxFeePerGas ?? tx.gasPrice ?? 0n;
  const overhead = refused.overheadGas < tx.gasLimit ? refused.overheadGas : 0n;
  const perItem = refused.items > 0 ? (tx.gasLimit - overhead) / BigInt(refused.items) : 0n;
  const halfTheItems = (overhead + perItem * BigInt(Math.floor(refused.items / 2))) * maxFee;
  const cap = node ?? halfTheItems;
  return cap < configured ? cap : configured;
}

/**
 * The accounts among `accounts` with a transaction of their own in the node's pool: a pending
 * count above the latest. geth's "authority already reserved" names no account; this finds it in
 * two calls per account carrying an authorization.
 */
export async function accountsWithPending(client: ChainClient, accounts: readonly string[]): Promise<Set<string>> {
  const counts = await Promise.all(accounts.map(async (account) => ({ account, latest: await client.nonceAt(account, "latest"), pending: await client.nonceAt(account, "pending") })));
  return new Set(counts.filter((c) => c.pending > c.latest).map((c) => c.account.toLowerCase()));
}

/** The items to leave out of a batch the node refused for a reserved authority. */
export async function reservedLeaving(client: ChainClient, batch: BatchToSend): Promise<Set<string>> {
  const items = splitItemsOf(batch);
  const pending = await accountsWithPending(client, [...new Set(items.filter((i) => i.withAuthorization).map((i) => i.account))]);
  return reservedItems(items, pending);
}

const returnPauseMs: Record<LeftOut["why"], number> = { fee_cap: 0, authority_reserved: RESERVED_AUTHORITY_PAUSE_MS, gas_price: GAS_PRICE_HOLD_PAUSE_MS };

/**
 * In the caller's database transaction: the items left out go back to the queue, not as an
 * attempt; those held for the gas price say so (waiting_for_gas_price, as the batcher's hold).
 */
export async function returnLeftOut(tx: Tx, names: QueueNames, batch: BatchToSend, leftOut: readonly LeftOut[], now = Date.now()): Promise<void> {
  if (!isSplittable(batch)) return;
  const scope = { partnerId: batch.partnerId, chainId: batch.chainId, hotWalletId: batch.hotWalletId, batchId: batch.id };
  for (const { ids, why } of leftOut) {
    await returnToQueue(tx, names, batch.purpose, scope, ids, new Date(now + returnPauseMs[why]), why === "gas_price" ? WAITING_FOR_GAS_PRICE : null);
  }
}

/**
 * After the node refused a transaction it never took (its fee cap, a reserved authority): in one
 * database transaction, guarded by the refused one being still only signed, it is dropped, the
 * items left out go back to the queue, and the next attempt's transaction is stored at the same
 * nonce (the next replacement number), to be broadcast. An attempt that failed fails the batch
 * (batch.failed: what is left in it is retried as any failed attempt); one with nothing left settles
 * it. Either leaves the nonce to the watcher's gap filler. Null when nothing is to be broadcast.
 * The refused one is dropped as given up at `head`: a pool that took it unheard could still have it
 * mined, and AbandonedTransactions then restores it (the nonce's other transaction replaced).
 */
export async function commitResend(db: Db, names: QueueNames, batch: BatchToSend, refused: StoredTransaction, attempt: Attempt, head: number): Promise<StoredTransaction | null> {
  const metrics = new PendingMetrics();
  const stored = await db.$transaction(
    async (tx) => {
      // The gas wallet's nonce row first, as every attempt locks it: attempts of one gas wallet serialize.
      await tx.$queryRaw`SELECT 1 FROM gas_wallet_chain_states WHERE gas_wallet_id = ${batch.gasWallet.id}::uuid AND chain_id = ${batch.chainId} FOR UPDATE`;
      // Only while signed: a node that took it since may have it mined.
      const dropped = await changeTransactions(tx, { ids: [refused.id] }, { to: "dropped", abandonedAtBlock: head }, ["signed"]);
      if (dropped === 0) return null;
      const stages = stagesOf(batch);
      await stages.rejectDropped(tx, names, batch, attempt.dropped, metrics);
      await returnLeftOut(tx, names, batch, attempt.leftOut ?? []);
      if (attempt.type === "failed") {
        await changeBatch(tx, names, batch, "sent", { to: "failed", reason: attempt.reason });
        return null;
      }
      if (attempt.type === "empty") {
        await changeBatch(tx, names, batch, "sent", { to: "confirmed" });
        return null;
      }
      const highest = await tx.chainTransaction.aggregate({ where: { chainId: batch.chainId, gasWalletId: batch.gasWallet.id, nonce: refused.nonce }, _max: { replacement: true } });
      const signed = await attempt.sign(refused.nonce);
      return storeTransaction(tx, { chainId: batch.chainId, gasWalletId: batch.gasWallet.id, batchId: batch.id, replacement: (highest._max.replacement ?? 0) + 1, ...transactionData(signed) });
    },
    { timeout: 30_000 },
  );
  metrics.commit();
  return stored;
}
