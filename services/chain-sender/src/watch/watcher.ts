import type { FeeCeiling } from "@sweep/fees";
import { countsAsSent, type ChainClient } from "@sweep/rpc";
import { PollingLoop, pauseFor } from "@sweep/worker";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { batchPurposes } from "../batch-purposes";
import type { InFlightTransaction } from "../batch-types";
import type { GasWalletRow, GasWalletSigners } from "../gas-wallet-signers";
import { nonceGaps } from "../nonces";
import { SettledReorgs } from "../reorgs/settled-reorgs";
import { AbandonedTransactions } from "./abandoned-transactions";
import { decideNonce, seenTaken, type NonceObservations } from "./nonce-decision";
import { StoredActions, type WatchActions } from "./watch-actions";
import { watchRound, type WatchRound } from "./watch-round";
import { storedWatchReads, type WatchPresence, type WatchStore } from "./watch-store";
import { settledWatchFrom } from "../reorgs/reorg-rules";
import { nextHeadRead } from "./watch-timing";
import { nextTakenRun, type AbandonRule, type TakenRun } from "./watch-rules";

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
  /** false on a chain without a public mempool (Arbitrum): a stuck transaction is never replaced at higher fees */
  bumpsFees: boolean;
  /** the chain's fee ceilings: no transaction offers more (a partner's own lower max fee applies to its gas wallet's) */
  feeCeiling: FeeCeiling;
  /** `TX_FEE_CAP_<chain_id>`: a replacement costing more at its gas limit and max fee is not made (default one coin) */
  txFeeCap?: bigint;
  gapGraceMs: number;
  dropAfterMs: number;
  /** called after a round wrote outbox messages, so the relay sends them at once */
  outboxWritten?: () => void;
}

/**
 * A round with nothing to watch (no transaction in flight, none settled or given up within the
 * reorg window, none reorged) rests longer, doubling up to this: the sender wakes the watcher once it
 * stored a transaction, so the rest only bounds what no wake announces (docs/decisions.md).
 */
export const WATCH_IDLE_MAX_MS = 10_000;

/** What a watcher is made of besides its options: the database's and the node's, or a unit test's fakes. */
export interface WatcherParts {
  store: WatchStore;
  actions: WatchActions;
  /**
   * run each round before the in-flight transactions: settled ones re-checked for reorgs, given-up ones
   * looked for on chain; each told which kinds the chain has, and answering whether it had any to look at
   */
  settledReorgs: { runOnce(round: WatchRound, present: Pick<WatchPresence, "settled" | "reorged">): Promise<boolean> };
  abandoned: { runOnce(round: WatchRound, present: Pick<WatchPresence, "givenUp">): Promise<boolean> };
}

/** The parts a running watcher is made of. */
export function storedParts(options: WatcherOptions): WatcherParts {
  const { db, names, client, logger, outboxWritten } = options;
  return {
    store: storedWatchReads(db),
    actions: new StoredActions(options),
    settledReorgs: new SettledReorgs({ db, client, logger, abandon: ABANDON_TAKEN }),
    abandoned: new AbandonedTransactions({ db, names, client, logger, outboxWritten }),
  };
}

interface WalletView {
  wallet: GasWalletRow;
  head: number;
  /** the newest block whose outcomes are final this round: confirmations deep, or the node's finalized block */
  final: number;
  /** the chain's nonce count at the latest block, at the final block, and with the node's pool */
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
 * It observes and decides (nonce-decision.ts); what it decides is done by its actions (watch-actions.ts).
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
  private readonly store: WatchStore;
  private readonly actions: WatchActions;
  private readonly settledReorgs: WatcherParts["settledReorgs"];
  private readonly abandoned: WatcherParts["abandoned"];

  constructor(
    private readonly options: WatcherOptions,
    parts: WatcherParts = storedParts(options),
  ) {
    this.store = parts.store;
    this.actions = parts.actions;
    this.settledReorgs = parts.settledReorgs;
    this.abandoned = parts.abandoned;
    this.loop = new PollingLoop({
      name: "watcher",
      intervalMs: options.intervalMs,
      idleMaxMs: Math.max(options.intervalMs, WATCH_IDLE_MAX_MS),
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

  /** Starts a round now: the sender stored and broadcast a transaction (the watcher reads it from the database). */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /**
   * The interval (a block time), cut short by a new block while there are transactions to watch, and
   * while there are none by wake(): the sender wakes the watcher once it stored a transaction, so an
   * idle watcher asks neither the node nor the database between its rounds.
   */
  private async untilNextRound(intervalMs: number, cut: AbortSignal): Promise<void> {
    const { headPollMs, client } = this.options;
    const deadline = Date.now() + intervalMs;
    if (this.watchedHead === undefined) return pauseFor(intervalMs, cut);
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

  /** One round over every unsettled transaction of the chain; "idle" when there was nothing to watch. */
  async runOnce(): Promise<"idle" | undefined> {
    const { client, logger } = this.options;
    // The window as of the last head seen: never above this round's, so no kind within it is missed.
    const present = await this.store.presence(client.chainId, settledWatchFrom(this.lastHead?.number ?? 0));
    const rows = present.inFlight ? await this.store.inFlightTransactions(client.chainId) : [];
    if (!this.resumed) {
      this.resumed = true;
      if (rows.length > 0) logger.info("resuming stored transactions", { chainId: client.chainId, count: rows.length });
    }
    const nonces = new Set(rows.map((r) => nonceKey(r.gasWalletId, r.nonce)));
    for (const key of this.refusedSince.keys()) if (!nonces.has(key)) this.refusedSince.delete(key);
    for (const key of this.keptAtCeiling.keys()) if (!nonces.has(key)) this.keptAtCeiling.delete(key);
    for (const key of this.takenRuns.keys()) if (!nonces.has(key)) this.takenRuns.delete(key);
    const head = await this.roundHead();
    const round = watchRound(client, head);
    // A part that failed may have had something to watch: no rest then.
    let settledWatched = true;
    let abandonedWatched = true;
    try {
      settledWatched = await this.settledReorgs.runOnce(round, present);
    } catch (err) {
      logger.warn("could not re-check settled transactions for reorgs this round", { chainId: client.chainId, error: err instanceof Error ? err.message : String(err) });
    }
    try {
      abandonedWatched = await this.abandoned.runOnce(round, present);
    } catch (err) {
      logger.warn("could not look for given-up transactions on chain this round", { chainId: client.chainId, error: err instanceof Error ? err.message : String(err) });
    }
    if (rows.length === 0) {
      this.gapSince.clear();
      return settledWatched || abandonedWatched ? undefined : "idle";
    }
    this.watchedHead = head;
    const wallets = await this.store.gasWalletsById([...new Set(rows.map((r) => r.gasWalletId))]);
    for (const wallet of wallets) {
      const walletLogger = logger.child({ chainId: client.chainId, gasWallet: wallet.address });
      try {
        await this.watchWallet(wallet, rows.filter((r) => r.gasWalletId === wallet.id), round, walletLogger);
      } catch (err) {
        walletLogger.warn("could not watch the gas wallet's transactions this round", { error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  private async watchWallet(wallet: GasWalletRow, rows: InFlightTransaction[], { head, final: finalBlock }: WatchRound, logger: Logger): Promise<void> {
    const { client } = this.options;
    // Nonce counts are read before any receipt, so a transaction of ours mined in between cannot pass for another's; the count
    // at depth at a block number, which a node behind it cannot answer (RpcEndpoints asks again).
    const final = await finalBlock();
    const countedAt = Math.max(0, final);
    const [atDepth, latestCount, pending] = await Promise.all([
      client.nonceAt(wallet.address, countedAt),
      countedAt === head ? undefined : client.nonceAt(wallet.address, "latest"),
      client.nonceAt(wallet.address, "pending"),
    ]);
    const latest = latestCount ?? atDepth;
    const view: WalletView = { wallet, head, final, latest, atDepth, pending: pending > latest ? pending : latest, now: Date.now(), logger };

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
      final: view.final,
      takenRun,
      current: { status: current.status, sentAt: current.broadcastAt ?? current.createdAt, gapFill: current.batch ? batchPurposes[current.batch.purpose].gapFill : false },
      now: view.now,
      refusedSince: this.refusedSince.get(key) ?? view.now,
    };
    const rules = { bumps: this.options.bumpsFees, replaceAfterMs: this.options.replaceAfterMs, dropAfterMs: this.options.dropAfterMs, abandon: ABANDON_TAKEN };
    const txLogger = logger.child({ transactionId: current.id, hash: current.hash });
    const at = { wallet: view.wallet, nonce, head: view.head };
    for (;;) {
      const decision = decideNonce(seen, rules);
      switch (decision.do) {
        case "ask_pool":
          seen.inPool = await client.isKnown(current.hash);
          continue;
        case "rebroadcast":
          seen.rebroadcast = await this.actions.rebroadcast(current, txLogger);
          if (countsAsSent(seen.rebroadcast)) this.refusedSince.delete(key);
          continue;
        case "ask_earlier_pool":
          seen.earlierInPool = await this.anyInPool(group.slice(0, -1));
          // No version of the nonce in the pool: from now on the node refuses every transaction of it.
          if (!seen.earlierInPool) this.refusedSince.set(key, seen.refusedSince);
          continue;
        case "settle":
          return this.actions.settle(group[minedAt]!, receipts[minedAt]!, group, logger);
        case "abandon":
          return this.actions.abandonTaken(at, logger);
        case "replace":
          if (!(await this.actions.replace(at, current, txLogger))) await this.keepAtCeiling(view, current, txLogger);
          return;
        case "fill":
          return this.actions.dropAndFill(at, decision.reason, seen.rebroadcast!, txLogger);
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

  /** A stuck transaction that cannot be replaced is kept and sent again, at most once per replaceAfterMs. */
  private async keepAtCeiling(view: WalletView, current: InFlightTransaction, logger: Logger): Promise<void> {
    const key = nonceKey(view.wallet.id, current.nonce);
    if (view.now - (this.keptAtCeiling.get(key) ?? 0) < this.options.replaceAfterMs) return;
    this.keptAtCeiling.set(key, view.now);
    await this.actions.keepAtCeiling(current, logger);
  }

  /** Nonces below our in-flight ones that nothing will fill get a self-transfer once the gap has lasted the grace period. */
  private async fillGaps(view: WalletView, inFlight: bigint[]): Promise<void> {
    const { client, gapGraceMs } = this.options;
    const settled = await this.store.confirmedNoncesFrom(client.chainId, view.wallet.id, view.latest);
    const gaps = nonceGaps({ latest: view.latest, pending: view.pending, inFlight, settled });
    const keys = new Set(gaps.map((nonce) => nonceKey(view.wallet.id, nonce)));
    for (const key of this.gapSince.keys()) if (key.startsWith(`${view.wallet.id}:`) && !keys.has(key)) this.gapSince.delete(key);
    for (const nonce of gaps) {
      const key = nonceKey(view.wallet.id, nonce);
      const since = this.gapSince.get(key) ?? view.now;
      this.gapSince.set(key, since);
      if (view.now - since < gapGraceMs) continue;
      if (await this.actions.fillGap({ wallet: view.wallet, nonce, head: view.head }, view.logger.child({ nonce: nonce.toString(), latest: view.latest.toString() }))) this.gapSince.delete(key);
    }
  }
}

const nonceKey = (gasWalletId: string, nonce: bigint) => `${gasWalletId}:${nonce}`;

/**
 * A nonce counted past with no receipt of ours is given up after three rounds at later heads
 * spanning 12 blocks agree: a missing receipt from a backend lagging fewer blocks is not taken for
 * another transaction's (docs/decisions.md).
 */
const ABANDON_TAKEN: AbandonRule = { rounds: 3, blocks: 12 };
