import type { Logger } from "@sweep/common";
import type { ChainClient } from "@sweep/rpc";
import type { Db } from "@sweep/db";
import { openBatch, states } from "@sweep/lifecycle";
import type { RetryLater } from "@sweep/messaging";
import type { BatchSender } from "./batch-sender";

export interface DeployRequestsOptions {
  db: Db;
  client: ChainClient;
  sender: BatchSender;
  logger: Logger;
}

/**
 * hot_wallet.deploy: a pending hot wallet gets a deploy_delegate batch (factory.deploy(hotWallet,
 * gasWallet)), sent like any batch. Idempotent: an open deploy batch is sent, one in flight is
 * left to the watcher, and a confirmed one that left code at the delegate awaits the ledger. A
 * hot wallet registered again after a failure gets a new batch. A disabled partner's hot wallet
 * gets no batch and stays pending (enabling the partner sends hot_wallet.deploy again); a batch
 * made before the disable is sent like any batch claimed before it.
 */
export class DeployRequests {
  constructor(private readonly options: DeployRequestsOptions) {}

  /** A RetryLater when the deployment is held open for the gas price: the message comes again, and finds the open batch. */
  async handle(hotWalletId: string): Promise<void | RetryLater> {
    const batchId = await this.deployBatchFor(hotWalletId);
    if (batchId) return this.options.sender.send(batchId);
  }

  private async deployBatchFor(hotWalletId: string): Promise<string | null> {
    const { db, client } = this.options;
    const logger = this.options.logger.child({ hotWalletId, chainId: client.chainId });
    const hotWallet = await db.hotWallet.findUnique({ where: { id: hotWalletId }, include: { partner: { select: { gasWallet: { select: { id: true } } } } } });
    const gasWalletId = hotWallet?.partner.gasWallet?.id;
    if (!hotWallet || hotWallet.chainId !== client.chainId || !gasWalletId) {
      logger.warn("no hot wallet of this chain with a gas wallet to deploy for");
      return null;
    }
    const latestDeploy = () => db.batch.findFirst({ where: { hotWalletId, purpose: "deploy_delegate" }, orderBy: { createdAt: "desc" } });
    const seen = await latestDeploy();
    // The only chain read, and only when a deployment went through: did it leave the delegate?
    const deployed = seen?.status === states.batch.confirmed ? await client.hasCode(hotWallet.delegate) : false;

    return db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM hot_wallets WHERE id = ${hotWalletId}::uuid FOR UPDATE`;
      const current = await tx.hotWallet.findUniqueOrThrow({ where: { id: hotWalletId }, select: { status: true, partner: { select: { enabled: true } } } });
      if (current.status !== states.hotWallet.pending) {
        logger.info("hot wallet is not pending; nothing to deploy", { status: current.status });
        return null;
      }
      const latest = await tx.batch.findFirst({ where: { hotWalletId, purpose: "deploy_delegate" }, orderBy: { createdAt: "desc" } });
      if (latest?.status === states.batch.open) return latest.id;
      if (latest?.status === states.batch.sent || (latest?.status === states.batch.confirmed && (deployed || latest.id !== seen?.id))) {
        logger.info("deployment already under way or done", { batchId: latest.id, status: latest.status });
        return null;
      }
      if (!current.partner.enabled) {
        logger.info("partner disabled; the deployment waits until it is enabled again");
        return null;
      }
      const batchId = await openBatch(tx, { chainId: client.chainId, gasWalletId, hotWalletId, purpose: "deploy_delegate" });
      await tx.hotWallet.update({ where: { id: hotWalletId }, data: { attempts: { increment: 1 } } });
      logger.info("deploy batch created", { batchId });
      return batchId;
    });
  }
}
