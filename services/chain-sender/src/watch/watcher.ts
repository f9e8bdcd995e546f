import { DEFAULT_TX_FEE_CAP, NATIVE_TRANSFER_GAS, countsAsSent, effectiveFeeCeiling, withinTxFeeCap, type BroadcastVerdict, type ChainClient, type FeeCeiling, type Receipt } from "@sweep/chain";
import { PollingLoop, pauseFor, type Logger } from "@sweep/common";
import { partnerMaxFeePerGas, type Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { confirmationSeconds, nonceGapsTotal, noncesAbandonedTotal, replacementsAtCeilingTotal, replacementsTotal } from "@sweep/metrics";
import { batchPurposes } from "../batch-purposes";
import { broadcastStored } from "../broadcast";
import { sinceFirstBroadcast } from "./confirmation-time";
import { bumpFees, highestFees, initialFees, type Fees } from "../fees";
import type { GasWalletRow, GasWalletSigners } from "../gas-wallet-signers";
import type { RevocationItemOutcome } from "./mined-outcomes";
import { decideNonce, seenTaken, type NonceObservations } from "./nonce-decision";
import { nonceGaps } from "../nonces";
import { contentOf, signTransaction, type SignedTransaction } from "../signing";
import {
  abandonNonce,
  confirmedNoncesFrom,
  gasWalletsById,
  inFlightTransactions,
  settleMined,
  storeGapFill,
  storeReplacement,
  transactionsAtNonces,
} from "../transaction-store";
import type { InFlightTransaction } from "../batch-types";
import { AbandonedTransactions } from "./abandoned-transactions";
import { SettledReorgs } from "../reorgs/settled-reorgs";
import { anyInFlight } from "./stored-in-flight";
import { nextHeadRead, MIN_STORED_POLL_MS } from "./watch-timing";
import { depthBlock, nextTakenRun, type AbandonRule, type TakenRun } from "./watch-rules";

export interface WatcherOptions {
  db: Db;
  names: QueueNames;
  client: ChainClient;
  signers: GasWalletSigners;
  logger: Logger;
  /**
   * The chain's block time: the longest pause between rounds (an idle watcher reads the head once a
   * block), and, while transactions are in flight, how long after a new head the next one is due.
   */
  intervalMs: number;
  /**
   * While transactions are in flight the head is read from when the next block is due, then this
   * often (doubling while none comes), and a new block starts a round at once, so a mined batch is
   * settled (and its hot wallet's next batch claimed) within the block (watch-timing.ts).
   */
  headPollMs: number;
  replaceAfterMs: number;
  /** the chain's fee ceilings: no transaction offers more (a partner's own lower max fee applies to its gas wallet's) */
  feeCeiling: FeeCeiling;
  /** `TX_FEE_CAP_<chain_id>`: a replacement costing more at its gas limit and max fee is not made (default one coin) */
  txFeeCap?: bigint;
  gapGraceMs: number;
  dropAfterMs: number;
  /** called after a round wrote outbox messages, so the relay sends them at once */
  outboxWritten?: () => void;
}

interface WalletView {
  wallet: GasWalletRow;
  head: number;
  /** the chain's nonce count at the latest block, at the confirmation depth, and with the node's pool */
  latest: bigint;
  atDepth: bigint;
  pending: bigint;
  now: number;
  logger: Logger;
}

/**
 * Watches one chain's stored, unsettled transactions, from the database alone (so a restarted or
 * second instance resumes where the last one stopped): settles what was mined at the confirmation
 * depth, rebroadcasts what the node does not know, replaces what is stuck at the same nonce with the
 * same content and higher fees, gives up a nonce another transaction took, and fills nonce gaps
 * with self-transfers. Settled transactions are re-checked for reorgs deeper than the confirmations
 * (SettledReorgs), and given-up transactions found mined after all are restored (AbandonedTransactions).
 */
export class ChainWatcher {
  /** `<gas wallet id>:<nonce>` → since when the node refuses every transaction of that nonce */
  private readonly refusedSince = new Map<string, number>();
  /** `<gas wallet id>:<nonce>` → when a stuck transaction at its fee ceiling was last kept and sent again */
  private readonly keptAtCeiling = new Map<string, number>();
  /** `<gas wallet id>:<nonce>` → the rounds in a row that saw it taken (in memory: a restart only starts the run again) */
  private readonly takenRuns = new Map<string, TakenRun>();
  /** `<gas wallet id>:<nonce>` → when the gap was first seen */
  private readonly gapSince = new Map<string, number>();
  private readonly loop: PollingLoop;
  private resumed = false;
  /** the head the last round saw, while it had transactions to watch */
  private watchedHead?: number;
  /** the newest head seen and when it was first seen: the next block is due one block time later */
  private lastHead?: { number: number; seenAt: number };
  /** a new head the pause read, which the round starts from instead of reading it again */
  private polledHead?: number;
  private readonly settledReorgs: SettledReorgs;
  private readonly abandoned: AbandonedTransactions;

  constructor(private readonly options: WatcherOptions) {
    this.settledReorgs = new SettledReorgs({ db: options.db, client: options.client, logger: options.logger, abandon: ABANDON_TAKEN });
    this.abandoned = new AbandonedTransactions({ db: options.db, names: options.names, client: options.client, logger: options.logger, outboxWritten: options.outboxWritten });
    this.loop = new PollingLoop({
      name: "watcher",
      intervalMs: options.intervalMs,
      round: () => {
        this.watchedHead = undefined;
        return this.runOnce();
      },
      failed: (err) => options.logger.warn("watch round failed", { chainId: options.client.chainId, error: err instanceof Error ? err.message : String(err) }),
      pause: (ms, cut) => this.untilNextRound(ms, cut),
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /**
   * The interval (a block time), cut short by a new block while there are transactions to watch, and
   * while there are none by a transaction stored meanwhile (asked of the database, not the node).
   */
  private async untilNextRound(intervalMs: number, cut: AbortSignal): Promise<void> {
    const { headPollMs, client, db } = this.options;
    const deadline = Date.now() + intervalMs;
    if (this.watchedHead === undefined) {
      while (Date.now() < deadline) {
        await pauseFor(Math.min(Math.max(headPollMs, MIN_STORED_POLL_MS), deadline - Date.now()), cut);
        if (cut.aborted || (await anyInFlight(db, client.chainId).catch(() => false))) return;
      }
      return;
    }
    for (let lateReads = 0; ; lateReads++) {
      const now = Date.now();
      const seenAt = this.lastHead?.seenAt ?? now;
      if (now >= deadline) return;
      await pauseFor(nextHeadRead({ now, headSeenAt: seenAt, blockTimeMs: intervalMs, pollMs: headPollMs, lateReads, deadline }), cut);
      if (cut.aborted) return;
      const head = await client.headNumber().catch(() => undefined);
      if (head !== undefined && head !== this.watchedHead) {
        this.polledHead = head;
        return;
      }
    }
  }

  /** The round's head: the one the pause just read, else a read; noted with when it was first seen. */
  private async roundHead(): Promise<number> {
    const head = this.polledHead ?? (await this.options.client.headNumber());
    this.polledHead = undefined;
    if (head !== this.lastHead?.number) this.lastHead = { number: head, seenAt: Date.now() };
    return head;
  }

  /** One round over every unsettled transaction of the chain. */
  async runOnce(): Promise<void> {
    const { db, client, logger } = this.options;
    const rows = await inFlightTransactions(db, client.chainId);
    if (!this.resumed) {
      this.resumed = true;
      if (rows.length > 0) logger.info("resuming stored transactions", { chainId: client.chainId, count: rows.length });
    }
    const nonces = new Set(rows.map((r) => nonceKey(r.gasWalletId, r.nonce)));
    for (const key of this.refusedSince.keys()) if (!nonces.has(key)) this.refusedSince.delete(key);
    for (const key of this.keptAtCeiling.keys()) if (!nonces.has(key)) this.keptAtCeiling.delete(key);
    for (const key of this.takenRuns.keys()) if (!nonces.has(key)) this.takenRuns.delete(key);
    const head = await this.roundHead();
    try {
      await this.settledReorgs.runOnce(head);
    } catch (err) {
      logger.warn("could not re-check settled transactions for reorgs this round", { chainId: client.chainId, error: err instanceof Error ? err.message : String(err) });
    }
    try {
      await this.abandoned.runOnce(head);
    } catch (err) {
      logger.warn("could not look for given-up transactions on chain this round", { chainId: client.chainId, error: err instanceof Error ? err.message : String(err) });
    }
    if (rows.length === 0) {
      this.gapSince.clear();
      return;
    }
    this.watchedHead = head;
    const wallets = await gasWalletsById(db, [...new Set(rows.map((r) => r.gasWalletId))]);
    for (const wallet of wallets) {
      const walletLogger = logger.child({ chainId: client.chainId, gasWallet: wallet.address });
      try {
        await this.watchWallet(wallet, rows.filter((r) => r.gasWalletId === wallet.id), head, walletLogger);
      } catch (err) {
        walletLogger.warn("could not watch the gas wallet's transactions this round", { error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  private async watchWallet(wallet: GasWalletRow, rows: InFlightTransaction[], head: number, logger: Logger): Promise<void> {
    const { client } = this.options;
    // Nonce counts are read before any receipt, so a transaction of ours mined in between cannot pass for another's; the count
    // at depth at a block number, which a node behind it cannot answer (RpcEndpoints asks again).
    const countedAt = depthBlock(head, client.chain.confirmations);
    const [atDepth, latestCount, pending] = await Promise.all([
      client.nonceAt(wallet.address, countedAt),
      countedAt === head ? undefined : client.nonceAt(wallet.address, "latest"),
      client.nonceAt(wallet.address, "pending"),
    ]);
    const latest = latestCount ?? atDepth;
    const view: WalletView = { wallet, head, latest, atDepth, pending: pending > latest ? pending : latest, now: Date.now(), logger };

    const byNonce = new Map<bigint, InFlightTransaction[]>();
    for (const row of rows) byNonce.set(row.nonce, [...(byNonce.get(row.nonce) ?? []), row]);
    for (const [nonce, group] of byNonce) {
      await this.watchNonce(view, nonce, group, logger.child({ nonce: nonce.toString(), batchId: group[0]!.batch?.id }));
    }
    await this.fillGaps(view, [...byNonce.keys()]);
  }

  /** Observes what the decision asks for (receipts first, the pool and a rebroadcast only when they decide something) and acts on it. */
  private async watchNonce(view: WalletView, nonce: bigint, group: InFlightTransaction[], logger: Logger): Promise<void> {
    const { client } = this.options;
    // Each receipt a request of its own: a null answer may come from a lagging backend, and only rounds at later heads that agree give the nonce up.
    const receipts = await client.receipts(group.map((row) => row.hash));
    const minedAt = receipts.findIndex((r) => r !== null);
    const current = group[group.length - 1]!;
    const key = nonceKey(view.wallet.id, nonce);
    const minedBlock = minedAt >= 0 ? receipts[minedAt]!.blockNumber : null;
    const takenRun = nextTakenRun(this.takenRuns.get(key), view.head, seenTaken({ nonce, atDepth: view.atDepth, minedBlock }));
    if (takenRun) this.takenRuns.set(key, takenRun);
    else this.takenRuns.delete(key);
    const seen: NonceObservations = {
      nonce,
      latest: view.latest,
      atDepth: view.atDepth,
      minedBlock,
      head: view.head,
      takenRun,
      current: { status: current.status, sentAt: current.broadcastAt ?? current.createdAt, gapFill: current.batch ? batchPurposes[current.batch.purpose].gapFill : false },
      now: view.now,
      refusedSince: this.refusedSince.get(key) ?? view.now,
    };
    const rules = { confirmations: client.chain.confirmations, replaceAfterMs: this.options.replaceAfterMs, dropAfterMs: this.options.dropAfterMs, abandon: ABANDON_TAKEN };
    const txLogger = logger.child({ transactionId: current.id, hash: current.hash });
    for (;;) {
      const decision = decideNonce(seen, rules);
      switch (decision.do) {
        case "ask_pool":
          seen.inPool = await client.isKnown(current.hash);
          continue;
        case "rebroadcast":
          seen.rebroadcast = await broadcastStored(this.options.db, client, current, txLogger);
          if (countsAsSent(seen.rebroadcast)) this.refusedSince.delete(key);
          continue;
        case "ask_earlier_pool":
          seen.earlierInPool = await this.anyInPool(group.slice(0, -1));
          // No version of the nonce in the pool: from now on the node refuses every transaction of it.
          if (!seen.earlierInPool) this.refusedSince.set(key, seen.refusedSince);
          continue;
        case "settle":
          return this.settle(group[minedAt]!, receipts[minedAt]!, group, logger);
        case "abandon":
          return this.abandonTaken(view, nonce, logger);
        case "replace":
          return this.replace(view, current, txLogger);
        case "fill":
          return this.dropAndFill(view, nonce, decision.reason, seen.rebroadcast!, txLogger);
        case "wait":
          if (decision.why === "confirming_taken") logger.info("the nonce is counted past with no receipt of ours; given up only once later rounds agree", { head: view.head, takenRun });
          return;
      }
    }
  }

  private async anyInPool(transactions: readonly InFlightTransaction[]): Promise<boolean> {
    for (const transaction of transactions) if (await this.options.client.isKnown(transaction.hash)) return true;
    return false;
  }

  /** A transaction of ours mined at the confirmation depth: its batch settled (a revocation's once its accounts' code is read). */
  private async settle(mined: InFlightTransaction, receipt: Receipt, group: InFlightTransaction[], logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    const revocations = await this.chainOutcomes(mined, receipt, logger);
    if (!revocations) return;
    if (await settleMined(db, names, mined, receipt, logger, revocations)) {
      this.options.outboxWritten?.();
      confirmationSeconds.observe({ chain_id: client.chainId, purpose: mined.batch?.purpose ?? "none" }, sinceFirstBroadcast(group, Date.now()));
      logger.info("transaction confirmed", { transactionId: mined.id, hash: mined.hash, blockNumber: receipt.blockNumber, succeeded: receipt.succeeded });
    }
  }

  /** The chain counted past the nonce with no receipt of ours: another transaction took it, and its batches fail. */
  private async abandonTaken(view: WalletView, nonce: bigint, logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    const abandoned = await abandonNonce(db, names, { chainId: client.chainId, gasWalletId: view.wallet.id, nonce, head: view.head, reason: "nonce_conflict" });
    if (abandoned) {
      this.options.outboxWritten?.();
      noncesAbandonedTotal.inc({ chain_id: client.chainId, reason: "nonce_conflict" });
      logger.warn("another transaction took the nonce; batch failed", { batchIds: abandoned.batchIds, reason: "nonce_conflict" });
    }
  }

  /**
   * What the chain says of the carried items, read before settling as the batch's purpose asks
   * (a revocation batch's accounts' code). Null when the node does not answer: the transaction is
   * settled next round.
   */
  private async chainOutcomes(mined: InFlightTransaction, receipt: Receipt, logger: Logger): Promise<RevocationItemOutcome[] | null> {
    if (!mined.batch) return [];
    try {
      return await batchPurposes[mined.batch.purpose].chainOutcomes(this.options.db, this.options.client, mined.batch, receipt);
    } catch (err) {
      logger.warn("could not read the revoked accounts' code; settling next round", { hash: mined.hash, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }

  /**
   * The same content at the same nonce with fees above every earlier transaction of that nonce and the current market;
   * when those fees would cross the ceiling, the transaction is kept and sent again (once per replaceAfterMs), never dropped.
   */
  private async replace(view: WalletView, current: InFlightTransaction, logger: Logger): Promise<void> {
    const { db, client } = this.options;
    const next = await this.nextAtNonce(view, current.nonce);
    if (!next) return this.keepAtCeiling(view, current, logger);
    const { fees, replacement } = next;
    const content = contentOf(current.rawTx);
    // A bump over the fee cap would be refused by the node (and risk more than the cap): the transaction is kept as it is.
    if (!withinTxFeeCap(content.gasLimit, fees.maxFeePerGas, this.options.txFeeCap ?? DEFAULT_TX_FEE_CAP)) return this.keepAtCeiling(view, current, logger);
    const signed = await signTransaction(this.signer(view), client.chain.provider, content, fees);
    const stored = await storeReplacement(db, current, signed, replacement);
    if (!stored) return;
    replacementsTotal.inc({ chain_id: client.chainId });
    const replacementLogger = logger.child({ transactionId: stored.id, hash: stored.hash, replaces: current.hash, replacement });
    replacementLogger.info("replacing a stuck transaction", { maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() });
    await broadcastStored(db, client, stored, replacementLogger);
  }

  private async keepAtCeiling(view: WalletView, current: InFlightTransaction, logger: Logger): Promise<void> {
    const key = nonceKey(view.wallet.id, current.nonce);
    if (view.now - (this.keptAtCeiling.get(key) ?? 0) < this.options.replaceAfterMs) return;
    this.keptAtCeiling.set(key, view.now);
    replacementsAtCeilingTotal.inc({ chain_id: this.options.client.chainId });
    logger.warn("stuck at the fee ceiling; kept and sent again", { maxFeePerGas: current.fees.maxFeePerGas.toString(), maxPriorityFeePerGas: current.fees.maxPriorityFeePerGas.toString() });
    await broadcastStored(this.options.db, this.options.client, current, logger);
  }

  /**
   * The node keeps refusing the transaction that blocks the others: it is given up (its batch fails
   * for `reason`: insufficient_gas_balance when the gas wallet cannot pay, nonce_conflict otherwise) and a
   * self-transfer takes its nonce, stored in the same database transaction.
   */
  private async dropAndFill(view: WalletView, nonce: bigint, reason: "insufficient_gas_balance" | "nonce_conflict", verdict: "accepted" | BroadcastVerdict, logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    const next = await this.nextAtNonce(view, nonce);
    // A self-transfer that must outbid at the ceiling cannot: it waits, the ceiling being the platform's word.
    if (!next) {
      logger.warn("cannot outbid the nonce's transaction under the fee ceiling; filled later", { reason });
      return;
    }
    const { fees, replacement } = next;
    const signed = await this.signGapFill(view, nonce, fees);
    const abandoned = await abandonNonce(db, names, { chainId: client.chainId, gasWalletId: view.wallet.id, nonce, head: view.head, reason, gapFill: { signed, replacement } });
    if (abandoned) {
      this.options.outboxWritten?.();
      noncesAbandonedTotal.inc({ chain_id: client.chainId, reason });
    }
    if (!abandoned?.gapFill) return;
    const fillLogger = logger.child({ transactionId: abandoned.gapFill.id, hash: abandoned.gapFill.hash });
    fillLogger.warn("gave up a transaction the node refuses; its nonce is filled with a self-transfer", { batchIds: abandoned.batchIds, reason, verdict });
    await broadcastStored(db, client, abandoned.gapFill, fillLogger);
  }

  /** Nonces below our in-flight ones that nothing will fill get a self-transfer once the gap has lasted the grace period. */
  private async fillGaps(view: WalletView, inFlight: bigint[]): Promise<void> {
    const { db, client, gapGraceMs } = this.options;
    const settled = await confirmedNoncesFrom(db, client.chainId, view.wallet.id, view.latest);
    const gaps = nonceGaps({ latest: view.latest, pending: view.pending, inFlight, settled });
    const keys = new Set(gaps.map((nonce) => nonceKey(view.wallet.id, nonce)));
    for (const key of this.gapSince.keys()) if (key.startsWith(`${view.wallet.id}:`) && !keys.has(key)) this.gapSince.delete(key);
    for (const nonce of gaps) {
      const key = nonceKey(view.wallet.id, nonce);
      const since = this.gapSince.get(key) ?? view.now;
      this.gapSince.set(key, since);
      if (view.now - since < gapGraceMs) continue;
      const next = await this.nextAtNonce(view, nonce);
      if (!next) continue;
      const { fees, replacement } = next;
      const stored = await storeGapFill(db, client.chainId, view.wallet.id, await this.signGapFill(view, nonce, fees), replacement);
      if (!stored) continue;
      this.gapSince.delete(key);
      nonceGapsTotal.inc({ chain_id: client.chainId });
      const logger = view.logger.child({ nonce: nonce.toString(), transactionId: stored.id, hash: stored.hash });
      logger.warn("closing a nonce gap with a self-transfer", { latest: view.latest.toString() });
      await broadcastStored(db, client, stored, logger);
    }
  }

  /**
   * Fees and replacement number for a new transaction at a nonce that may have earlier ones (of any status), under the
   * gas wallet's ceiling; null when outbidding them would cross it.
   */
  private async nextAtNonce(view: WalletView, nonce: bigint): Promise<{ fees: Fees; replacement: number } | null> {
    const { db, client } = this.options;
    const [earlier, market, partnerMaxFee] = await Promise.all([
      transactionsAtNonces(db, client.chainId, view.wallet.id, [nonce]),
      client.feeMarket(),
      partnerMaxFeePerGas(db, { gasWalletId: view.wallet.id }, client.chainId),
    ]);
    const ceiling = effectiveFeeCeiling(this.options.feeCeiling, partnerMaxFee);
    const outbid = highestFees(earlier.map((t) => t.fees));
    const fees = outbid ? bumpFees(outbid, market, ceiling) : initialFees(market, ceiling);
    return fees && { fees, replacement: earlier.length === 0 ? 0 : Math.max(...earlier.map((t) => t.replacement)) + 1 };
  }

  private signGapFill(view: WalletView, nonce: bigint, fees: Fees): Promise<SignedTransaction> {
    const { client } = this.options;
    const content = { chainId: BigInt(client.chainId), nonce, to: view.wallet.address, data: "0x", value: 0n, gasLimit: NATIVE_TRANSFER_GAS, authorizationList: [] };
    return signTransaction(this.signer(view), client.chain.provider, content, fees);
  }

  private signer(view: WalletView) {
    return this.options.signers.signerFor(view.wallet);
  }
}

const nonceKey = (gasWalletId: string, nonce: bigint) => `${gasWalletId}:${nonce}`;

/**
 * A nonce counted past with no receipt of ours is given up after three rounds at later heads
 * spanning 12 blocks agree: a missing receipt from a backend lagging fewer blocks is not taken for
 * another transaction's (docs/decisions.md).
 */
const ABANDON_TAKEN: AbandonRule = { rounds: 3, blocks: 12 };
