import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { Consumer, type Messaging } from "@sweep/messaging";
import { revocationOwner } from "./revocation-work";
import { revocationRoundKey } from "./round-keys";

/**
 * Consumes batcher.<chain> for each served chain. sweep.queued and hot_wallet.wake both ask for a
 * round of their hot wallet, revocation.queued for the revocation round of its partner on its
 * chain; each is acknowledged once that round has run: a redelivered message only asks again, and
 * a round claims only what is still queued and due. A wake (the batch in flight was mined, or
 * failed) starts the round at once: its sweeps have waited for it already. The ledger also writes
 * revocation.queued (of the partner's oldest queued revocation) to wake a revocation round after a
 * settlement its revocations waited for.
 */
export function startBatcherConsumers(options: {
  messaging: Pick<Messaging, "connection" | "topology">;
  db: Db;
  chainIds: readonly number[];
  /** asks for the round of a key (round-keys.ts) */
  request: (key: string, options?: { immediate?: boolean }) => Promise<void>;
  prefetch: number;
  logger: Logger;
}): Promise<Consumer[]> {
  const { messaging, db, request, logger } = options;
  return Promise.all(
    options.chainIds.map((chainId) =>
      Consumer.start(messaging.connection, messaging.topology, {
        queue: messaging.topology.names.batcher(chainId),
        prefetch: options.prefetch,
        logger,
        handlers: {
          "sweep.queued": async ({ sweepId, hotWalletId, chainId }, context) => {
            context.logger.debug("sweep queued", { sweepId, hotWalletId, chainId });
            await request(hotWalletId);
          },
          "hot_wallet.wake": async ({ hotWalletId, chainId }, context) => {
            context.logger.debug("hot wallet woken", { hotWalletId, chainId });
            await request(hotWalletId, { immediate: true });
          },
          "revocation.queued": async ({ revocationId, chainId }, context) => {
            const owner = await revocationOwner(db, revocationId);
            // Written in the revocation's own transaction, the message cannot come before it; a
            // revocation that is not there was never committed, and there is nothing to do.
            if (owner === null) {
              context.logger.warn("revocation.queued for an unknown revocation", { revocationId, chainId });
              return;
            }
            context.logger.debug("revocation queued", { revocationId, partnerId: owner.partnerId, chainId: owner.chainId });
            await request(revocationRoundKey(owner.partnerId, owner.chainId));
          },
        },
      }),
    ),
  );
}
