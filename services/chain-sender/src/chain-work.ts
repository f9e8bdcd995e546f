import type { Logger } from "@sweep/common";
import type { Messaging } from "@sweep/messaging";
import { startSenderConsumer, type ChainHandlers } from "./consumers";
import type { ChainWatcher } from "./watch/watcher";

/**
 * What the leader of a chain runs: the watcher first, resuming the stored transactions (a
 * batch.ready redelivered for a batch already sent only needs the watcher), then the consumer of
 * the chain's sender queue. Resolves to what stops both, the consumer first.
 */
export async function startChainWork(messaging: Pick<Messaging, "connection" | "topology">, chain: ChainHandlers & { watcher: ChainWatcher }, logger: Logger): Promise<() => Promise<void>> {
  chain.watcher.start();
  let consumer;
  try {
    consumer = await startSenderConsumer(messaging, chain, logger);
  } catch (err) {
    await chain.watcher.stop();
    throw err;
  }
  return async () => {
    await consumer.stop();
    await chain.watcher.stop();
  };
}
