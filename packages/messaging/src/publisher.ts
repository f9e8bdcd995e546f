import { randomUUID } from "node:crypto";
import type { Logger } from "@sweep/common";
import type { OutboxDraft, Prisma } from "@sweep/db";
import type { ChannelWrapper } from "amqp-connection-manager";
import type { ConfirmChannel } from "amqplib";
import { reconnectOnChannelFailure, type BrokerConnection } from "./connection";
import { routeMessage, type MessagePayload, type MessageType } from "./messages";
import { queueNames, type QueueNames } from "./names";
import { assertTopology, type Topology } from "./topology";
import { encodeEnvelope, type Envelope } from "./wire";

/**
 * A message for db's enqueueOutbox, validated by its schema: services write it in the same
 * transaction as the state it announces, and the outbox relay publishes it.
 */
export function outboxDraft<T extends MessageType>(type: T, payload: MessagePayload<T>, names: QueueNames = queueNames()): OutboxDraft {
  const routed = routeMessage(type, payload, names);
  return { exchange: names.workExchange, routingKey: routed.queue, type, payload: routed.payload as Prisma.InputJsonObject };
}

export interface PublisherOptions {
  logger: Logger;
  /** A publish not confirmed by then (broker down, blocked) is rejected. */
  publishTimeoutMs?: number;
}

/** Publishes with publisher confirms: a publish resolves only once the broker has the message. */
export class Publisher {
  private constructor(
    private readonly channel: ChannelWrapper,
    readonly topology: Topology,
  ) {}

  /** Declares the topology (again on every reconnect) and resolves when ready to publish. */
  static async open(connection: BrokerConnection, topology: Topology, options: PublisherOptions): Promise<Publisher> {
    const { logger } = options;
    const channel = connection.createChannel({ name: "publisher", confirm: true, publishTimeout: options.publishTimeoutMs ?? 10_000 });
    channel.on("error", (err: Error) => logger.error("publisher channel setup failed", { error: err.message }));
    try {
      await channel.waitForConnect();
      await channel.addSetup(async (ch: ConfirmChannel) => {
        reconnectOnChannelFailure(connection, ch, logger);
        await assertTopology(ch, topology);
      });
    } catch (err) {
      await channel.close();
      throw err;
    }
    return new Publisher(channel, topology);
  }

  /** Publishes straight to the broker (no outbox); returns the message id. */
  async publish<T extends MessageType>(type: T, payload: MessagePayload<T>, options: { messageId?: string } = {}): Promise<string> {
    const draft = outboxDraft(type, payload, this.topology.names);
    const messageId = options.messageId ?? randomUUID();
    await this.publishEnvelope(draft.exchange, draft.routingKey, { messageId, type, timestamp: new Date(), payload: draft.payload });
    return messageId;
  }

  /** Publishes an envelope validated earlier (an outbox row); resolves once confirmed. */
  async publishEnvelope(exchange: string, routingKey: string, envelope: Envelope): Promise<void> {
    const { content, options } = encodeEnvelope(envelope);
    await this.channel.publish(exchange, routingKey, content, options);
  }

  /** Rejects publishes not yet confirmed. */
  close(): Promise<void> {
    return this.channel.close();
  }
}
