import type { Logger } from "@sweep/common";
import { Consumer, type Messaging } from "@sweep/messaging";
import type { BatchSender } from "./batch-sender";
import type { DeployRequests } from "./deploy-requests";

export interface ChainHandlers {
  chainId: number;
  sender: BatchSender;
  deploys: DeployRequests;
}

/**
 * One consumer per served chain on its sender queue. The queue has a single active consumer and
 * each takes one message at a time (prefetch 1): this process is then the only one choosing its
 * gas wallets' nonces on that chain.
 */
export async function startSenderConsumers(messaging: Pick<Messaging, "connection" | "topology">, chains: readonly ChainHandlers[], logger: Logger): Promise<Consumer[]> {
  const consumers: Consumer[] = [];
  try {
    for (const { chainId, sender, deploys } of chains) {
      const consumer = await Consumer.start(messaging.connection, messaging.topology, {
        queue: messaging.topology.names.sender(chainId),
        prefetch: 1,
        logger,
        handlers: {
          "batch.ready": async (payload, { logger: log }) => {
            if (payload.chainId !== chainId) log.error("batch.ready of another chain on this queue", { chainId: payload.chainId });
            else await sender.send(payload.batchId);
          },
          "hot_wallet.deploy": async (payload, { logger: log }) => {
            if (payload.chainId !== chainId) log.error("hot_wallet.deploy of another chain on this queue", { chainId: payload.chainId });
            else await deploys.handle(payload.hotWalletId);
          },
        },
      });
      consumers.push(consumer);
    }
  } catch (err) {
    await Promise.all(consumers.map((c) => c.stop()));
    throw err;
  }
  return consumers;
}
