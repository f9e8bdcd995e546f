import { setTimeout as sleep } from "node:timers/promises";
import { environmentChainIds } from "@sweep/chains";
import { createLogger } from "@sweep/common";
import { Publisher, connectBroker, defineTopology, type MessagePayload, type MessageType, type Topology } from "@sweep/messaging";

/** A message as the broker routed it to a work queue. */
export interface TappedMessage {
  queue: string;
  messageId: string;
  type: string;
  content: Buffer;
  /** AMQP timestamp, whole seconds */
  timestamp?: number;
}

export interface WorkQueueTap {
  /** Everything routed to a work queue since the tap opened, in order, taken off the tap. */
  take(): Promise<TappedMessage[]>;
  close(): Promise<void>;
}

/** A test's hand on a stack's broker: the topology its services declared, as the operators' tools see it. */
export interface WorkQueues {
  topology: Topology;
  /**
   * A queue of the test's own bound to the work exchange beside every work queue (the same routing keys), so it
   * receives a copy of each message the services publish; exclusive to this connection, gone when it closes.
   */
  tap(): Promise<WorkQueueTap>;
  /** Publishes a message as a service would (validated, confirmed); returns its id. */
  publish<T extends MessageType>(type: T, payload: MessagePayload<T>): Promise<string>;
  /**
   * Puts a copy of a tapped message back in its work queue and makes it die there through the broker: `rejected`
   * (taken and refused without requeue, as the consumers refuse an invalid message) or `delivery_limit` (taken and
   * requeued until the queue's delivery limit dead-letters it). Nothing may consume the queue meanwhile. Returns how
   * many times the queue delivered it.
   */
  deadLetter(message: TappedMessage, death: "rejected" | "delivery_limit"): Promise<number>;
  /** Ready messages in a queue. */
  count(queue: string): Promise<number>;
  close(): Promise<void>;
}

const logger = createLogger("testkit-work-queues", "error");
/** A requeued or dead-lettered message moves asynchronously, but not for longer than this. */
const WAIT_MS = 10_000;

/** Opens on the broker and AMQP prefix of a stack's environment (`stack.env`). */
export async function openWorkQueues(env: Record<string, string>): Promise<WorkQueues> {
  const url = env.RABBITMQ_URL;
  if (!url) throw new Error("openWorkQueues: RABBITMQ_URL is not in this environment (startStack sets it)");
  const topology = defineTopology({ chainIds: environmentChainIds("testnet", env), prefix: env.AMQP_PREFIX });
  const connection = await connectBroker(url, { logger, connectTimeoutMs: 5_000 });
  const channel = connection.createChannel({ name: "testkit", confirm: true });
  await channel.waitForConnect();
  const publisher = await Publisher.open(connection, topology, { logger });

  return {
    topology,
    async tap() {
      const { queue } = await channel.assertQueue("", { exclusive: true, autoDelete: true, durable: false });
      for (const work of topology.workQueues) await channel.bindQueue(queue, topology.names.workExchange, work.name);
      return {
        async take() {
          const taken: TappedMessage[] = [];
          for (let message = await channel.get(queue); message !== false; message = await channel.get(queue)) {
            channel.ack(message);
            const { messageId, type, timestamp } = message.properties as { messageId: string; type: string; timestamp?: number };
            taken.push({ queue: message.fields.routingKey, messageId, type, content: message.content, timestamp });
          }
          return taken;
        },
        close: async () => void (await channel.deleteQueue(queue)),
      };
    },
    publish: (type, payload) => publisher.publish(type, payload),
    async deadLetter(message, death) {
      const { queue, messageId, type, content, timestamp } = message;
      const dlq = topology.names.deadLetter(queue);
      const before = (await channel.checkQueue(dlq)).messageCount;
      await channel.sendToQueue(queue, content, { persistent: true, contentType: "application/json", messageId, type, timestamp });
      // Consumed rather than fetched: a queue with a single active consumer refuses basic.get.
      let deliveries = 0;
      let stranger: unknown;
      const { consumerTag } = await channel.consume(
        queue,
        (taken) => {
          if (taken.properties.messageId !== messageId) stranger ??= taken.properties.messageId;
          else deliveries += 1;
          channel.nack(taken, false, stranger === undefined && death === "delivery_limit");
        },
        { prefetch: 1 },
      );
      try {
        const deadline = Date.now() + WAIT_MS;
        while ((await channel.checkQueue(dlq)).messageCount === before) {
          if (stranger !== undefined) throw new Error(`${queue} holds ${String(stranger)}: is its consumer stopped?`);
          if (Date.now() > deadline) throw new Error(`${messageId} did not reach ${dlq}`);
          await sleep(10);
        }
      } finally {
        await channel.cancel(consumerTag);
      }
      return deliveries;
    },
    count: async (queue) => (await channel.checkQueue(queue)).messageCount,
    async close() {
      await publisher.close();
      await channel.close();
      await connection.close();
    },
  };
}
