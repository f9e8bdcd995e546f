import { queueMessages, readOnScrape } from "@sweep/metrics";
import type { Channel } from "amqplib";
import type { BrokerConnection } from "./connection";

export interface QueueDepthReport {
  stop(): Promise<void>;
}

/**
 * Shows the messages ready in `queues` as sweep_queue_messages at each scrape. The passive checks
 * run on a channel of their own: a check that fails (a queue deleted by hand) closes only that
 * channel, not a consumer's, and it comes back with the connection's next reconnect. Until then,
 * or while the broker is away, the reads fail and the gauge leaves these queues out.
 */
export function reportQueueDepths(connection: BrokerConnection, queues: readonly string[]): QueueDepthReport {
  const channel = connection.createChannel({ name: "queue depths" });
  // Failures show as failed reads; without listeners they would crash the process.
  channel.on("error", () => undefined);
  void channel.addSetup(async (ch: Channel) => {
    ch.on("error", () => undefined);
  });
  const stopReading = readOnScrape(queueMessages, () =>
    Promise.all(queues.map(async (queue) => ({ labels: { queue }, value: (await channel.checkQueue(queue)).messageCount }))),
  );
  return {
    stop: async () => {
      stopReading();
      await channel.close();
    },
  };
}
