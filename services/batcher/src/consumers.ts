import type { Logger } from "@sweep/common";
import { Consumer, type Messaging } from "@sweep/messaging";

/**
 * Consumes batcher.<chain> for each served chain. sweep.queued and hot_wallet.wake both ask for a
 * round of their hot wallet and are acknowledged once it has run: a redelivered message only
 * asks again, and a round claims only what is still queued and due. A wake (the batch in flight
 * was mined, or failed) starts the round at once: its sweeps have waited for it already.
 */
export function startBatcherConsumers(options: {
  messaging: Pick<Messaging, "connection" | "topology">;
  chainIds: readonly number[];
  request: (hotWalletId: string, options?: { immediate?: boolean }) => Promise<void>;
  prefetch: number;
  logger: Logger;
}): Promise<Consumer[]> {
  const { messaging, request, logger } = options;
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
        },
      }),
    ),
  );
}
