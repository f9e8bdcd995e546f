import type { Logger } from "@sweep/common";
import { Consumer, type Messaging } from "@sweep/messaging";
import type { BatchSender } from "./send/batch-sender";
import type { DeployRequests } from "./send/deploy-requests";

export interface ChainHandlers {
  chainId: number;
  sender: BatchSender;
  deploys: DeployRequests;
}

/**
 * The consumer of a chain's sender queue, started only by the chain's leader (leader-lease.ts).
 * The queue has a single active consumer besides, and each takes one message at a time (prefetch
 * 1): this process is then the only one choosing its gas wallets' nonces on that chain.
 */
export function startSenderConsumer(messaging: Pick<Messaging, "connection" | "topology">, { chainId, sender, deploys }: ChainHandlers, logger: Logger): Promise<Consumer> {
  return Consumer.start(messaging.connection, messaging.topology, {
    queue: messaging.topology.names.sender(chainId),
    prefetch: 1,
    logger,
    handlers: {
      "batch.ready": async (payload, { logger: log }) => {
        if (payload.chainId !== chainId) log.error("batch.ready of another chain on this queue", { chainId: payload.chainId });
        // A batch held open for the gas price comes back as a RetryLater: the message is delivered again after it.
        else return sender.send(payload.batchId);
      },
      "hot_wallet.deploy": async (payload, { logger: log }) => {
        if (payload.chainId !== chainId) log.error("hot_wallet.deploy of another chain on this queue", { chainId: payload.chainId });
        else return deploys.handle(payload.hotWalletId);
      },
    },
  });
}
