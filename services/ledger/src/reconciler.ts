import { PollingLoop } from "@sweep/worker";
import type { Environment, Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import type { ChainReads } from "./chain-reads";
import { fullPassDue, needsReconciling, reconcileUpTo } from "./reconcile-rules";
import { commitReconciliation, unbookedTransaction, walletsToReconcile, type ReconciledWallet } from "./reconcile-store";

export interface ReconcilerOptions {
  db: Db;
  environment: Environment;
  chain: ChainReads;
  /** the pause between rounds (the chain's block time unless RECONCILE_INTERVAL_MS is set) */
  intervalMs: number;
  /** how often every gas wallet is read, active or not (RECONCILE_FULL_PASS_MS) */
  fullPassMs: number;
  names: QueueNames;
  logger: Logger;
  /** called after a reconciliation wrote outbox messages (balance.low), so the relay sends them at once */
  outboxWritten?: () => void;
}

/**
 * Balance reconciliation of one chain: every `intervalMs`, each gas wallet's balance at the last
 * final block whose transactions of ours the ledger has all booked is compared with the last
 * reconciled balance plus those transactions' entries; the difference is a topup entry naming the
 * blocks it covers. Its state lives in the database alone, so a restart or a second instance
 * carries on where the last reconciliation stopped. Each reconciled balance also drives the
 * partner's low-balance alert of the chain. A round reads the node only for the wallets with a
 * transaction of ours since their last reconciliation (needsReconciling), and not at all when there
 * are none; every `fullPassMs` (and first after a start) a full pass reads them all, which is when an
 * outside top-up of an idle wallet is booked.
 */
/**
 * A round with no gas wallet to read rests longer, doubling up to this: the ledger wakes the chain's
 * reconciliation once it handled a transaction's outcome, so the rest only delays what no wake
 * announces (another ledger's booking), by this at most; the full pass comes on time (docs/decisions.md).
 */
export const RECONCILE_IDLE_MAX_MS = 10_000;

export class Reconciler {
  private readonly loop: PollingLoop;
  private readonly logger: Logger;
  /** when the last full pass started (in memory: a restarted ledger starts with one) */
  private lastFullPassAt?: number;

  constructor(private readonly options: ReconcilerOptions) {
    this.logger = options.logger.child({ chainId: options.chain.chainId, loop: "reconciliation" });
    this.loop = new PollingLoop({
      name: "reconciliation",
      intervalMs: options.intervalMs,
      idleMaxMs: Math.max(options.intervalMs, RECONCILE_IDLE_MAX_MS),
      round: () => this.runOnce(),
      failed: (err) => this.logger.warn("reconciliation round failed", { error: err instanceof Error ? err.message : String(err) }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Starts a round now: a transaction's outcome was booked, its gas wallet may be reconciled. */
  wake(): void {
    this.loop.wake();
  }

  /** Ends the loop after the gas wallet under way. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One round over the gas wallets of the environment that need it (all of them in a full pass); idle until the next full pass when none did. */
  async runOnce(): Promise<{ idleUntil: number } | undefined> {
    const { db, environment, chain } = this.options;
    const startedAt = Date.now();
    const fullPass = fullPassDue(this.lastFullPassAt, startedAt, this.options.fullPassMs);
    const wallets = (await walletsToReconcile(db, environment, chain.chainId)).filter((wallet) => needsReconciling(wallet, fullPass));
    if (wallets.length === 0) {
      if (fullPass) this.lastFullPassAt = startedAt;
      return { idleUntil: this.lastFullPassAt! + this.options.fullPassMs };
    }
    // As the chain-sender settles: confirmations deep, or the node's finalized block.
    const final = await chain.finalBlock(await chain.head());
    if (fullPass) this.lastFullPassAt = startedAt;
    for (const wallet of wallets) {
      if (this.loop.stopping.aborted) return undefined;
      if (final <= (wallet.reconciledBlock ?? -1)) continue;
      const logger = this.logger.child({ gasWallet: wallet.address });
      try {
        await this.reconcile(wallet, final, logger);
      } catch (err) {
        logger.warn("could not reconcile the gas wallet this round", { error: err instanceof Error ? err.message : String(err) });
      }
    }
    return undefined;
  }

  private async reconcile(wallet: ReconciledWallet, final: number, logger: Logger): Promise<void> {
    const { db, chain } = this.options;
    const unbooked = await unbookedTransaction(db, wallet, chain.chainId, await chain.nonceAt(wallet.address, final));
    const upTo = reconcileUpTo(final, wallet.reconciledBlock, unbooked);
    if (upTo === null) {
      if (unbooked) logger.debug("waiting for the ledger to book a mined transaction", { nonce: unbooked.nonce.toString(), blockNumber: unbooked.blockNumber });
      return;
    }
    const balance = await chain.balanceAt(wallet.address, upTo);
    const result = await commitReconciliation(db, this.options.names, wallet, chain.chainId, upTo, balance);
    if (!result) {
      logger.debug("another reconciliation got there first", { upTo });
      return;
    }
    const fields = { amount: result.topup.toString(), note: result.note, balance: balance.toString(), expected: result.expected.toString() };
    // A fall beyond the ledger's entries is no top-up: money left the gas wallet that nothing of ours explains.
    if (result.topup < 0n) logger.warn("the gas wallet holds less than the ledger explains; booked as a negative topup", fields);
    else if (result.topup > 0n) logger.info("gas wallet topped up", fields);
    if (result.lowBalance) {
      logger.info("gas wallet balance fell below the alert threshold; balance.low recorded", { balance: balance.toString(), upTo });
      this.options.outboxWritten?.();
    }
  }
}
