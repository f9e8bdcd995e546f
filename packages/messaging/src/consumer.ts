import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@sweep/common";
import { messagesTotal, queueLag } from "@sweep/metrics";
import type { ChannelWrapper } from "amqp-connection-manager";
import type { ConfirmChannel, ConsumeMessage } from "amqplib";
import { z } from "zod";
import { reconnect, reconnectOnChannelFailure, type BrokerConnection } from "./connection";
import { messageAgeSeconds } from "./message-age";
import { isMessageType, messageRegistry, type MessagePayload, type MessageType } from "./messages";
import { payloadIds } from "./payload-ids";
import { delayTierFor, isRetryLater, type RetryLater } from "./retry-delay";
import { reportQueueDepths, type QueueDepthReport } from "./queue-depth";
import { assertTopology, type Topology } from "./topology";
import { RETRIES_HEADER, deliveryCount, publishConfirmed, republishOptions, retryCount } from "./wire";

export interface DeliveryContext {
  messageId: string;
  type: MessageType;
  /** 1 on the first delivery; each requeue adds one until the delivery limit dead-letters the message. */
  deliveries: number;
  /** Delayed retries this message has already waited through. */
  retries: number;
  logger: Logger;
}

/** Resolve to acknowledge; return retryAfter(ms) to be delivered again later; throw to be requeued now. */
export type Handler<T extends MessageType> = (payload: MessagePayload<T>, context: DeliveryContext) => Promise<void | RetryLater>;
export type Handlers = { [T in MessageType]?: Handler<T> };
type AnyHandler = (payload: unknown, context: DeliveryContext) => Promise<void | RetryLater>;

export interface ConsumerOptions {
  queue: string;
  handlers: Handlers;
  logger: Logger;
  /** Messages handled at once. */
  prefetch?: number;
  /**
   * Pause before a failed message is requeued, doubling with each delivery up to max, so that a
   * short outage does not use up the delivery limit within milliseconds.
   */
  requeueDelayMs?: { base: number; max: number };
}

/**
 * Consumes one work queue: validates each message by its type's schema (an invalid one goes to the
 * DLQ at once, never retried), runs its handler, acks on success, nacks with requeue on failure so
 * the queue's delivery limit bounds the attempts. Survives reconnects; stop() drains.
 */
export class Consumer {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private active?: { channel: ConfirmChannel; consumerTag: string };
  private stopped?: Promise<void>;
  private readonly logger: Logger;
  private depths?: QueueDepthReport;

  private constructor(
    private readonly connection: BrokerConnection,
    private readonly wrapper: ChannelWrapper,
    private readonly topology: Topology,
    private readonly options: ConsumerOptions,
  ) {
    this.logger = options.logger.child({ queue: options.queue });
  }

  static async start(connection: BrokerConnection, topology: Topology, options: ConsumerOptions): Promise<Consumer> {
    if (!topology.workQueues.some((q) => q.name === options.queue)) throw new Error(`${options.queue} is not a work queue of this topology`);
    const wrapper = connection.createChannel({ name: `consumer:${options.queue}`, confirm: true });
    const consumer = new Consumer(connection, wrapper, topology, options);
    wrapper.on("error", (err: Error) => consumer.logger.error("consumer channel setup failed", { error: err.message }));
    try {
      await wrapper.waitForConnect();
      await wrapper.addSetup(consumer.setup);
    } catch (err) {
      await wrapper.close();
      throw err;
    }
    consumer.depths = reportQueueDepths(connection, [options.queue, topology.names.deadLetter(options.queue)]);
    return consumer;
  }

  /** Stops taking messages, waits for the handlers under way to finish and settle, then closes the channel. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping.abort();
      await this.depths?.stop();
      await this.wrapper.removeSetup(this.setup);
      if (this.active) await this.cancel(this.active);
      await Promise.allSettled([...this.inFlight]);
      await this.wrapper.close();
    })();
    return this.stopped;
  }

  // Runs on every new channel. Messages are acked on the channel they came from: after a reconnect
  // the broker has requeued them, and an ack on the new channel would be an unknown delivery tag.
  private readonly setup = async (channel: ConfirmChannel): Promise<void> => {
    reconnectOnChannelFailure(this.connection, channel, this.logger);
    await assertTopology(channel, this.topology);
    await channel.prefetch(this.options.prefetch ?? 10);
    const { consumerTag } = await channel.consume(this.options.queue, (message) => {
      if (message === null) {
        this.logger.warn("consumer cancelled by the broker; reconnecting");
        reconnect(this.connection);
        return;
      }
      const handling = this.handle(channel, message);
      this.inFlight.add(handling);
      void handling.finally(() => this.inFlight.delete(handling));
    });
    this.active = { channel, consumerTag };
    if (this.stopping.signal.aborted) await this.cancel(this.active);
  };

  private async cancel({ channel, consumerTag }: { channel: ConfirmChannel; consumerTag: string }): Promise<void> {
    // A channel already gone has no consumer left, and the broker requeued its messages.
    await channel.cancel(consumerTag).catch(() => undefined);
  }

  private async handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const { messageId, type } = message.properties as { messageId?: string; type?: string };
    const deliveries = deliveryCount(message);
    const { queue } = this.options;
    // Lag is the wait before the first handling: a redelivery or a retry keeps the timestamp and would count it again, longer.
    const age = messageAgeSeconds(message.properties.timestamp, Date.now());
    if (age !== undefined && deliveries === 1 && retryCount(message) === 0) queueLag.observe({ queue }, age);
    const decoded = this.decode(message);
    // The payload's ids too, on every line about the message and the handler's: a dead letter can be traced to them.
    const logger = this.logger.child({ messageId, type, deliveries, ...payloadIds(decoded.body) });
    if ("problem" in decoded) {
      logger.error("invalid message dead-lettered without retry", { problem: decoded.problem });
      settle(logger, () => channel.nack(message, false, false));
      messagesTotal.inc({ queue, outcome: "dead_lettered" });
      return;
    }
    try {
      const result = await decoded.handler(decoded.payload, { messageId: decoded.messageId, type: decoded.type, deliveries, retries: retryCount(message), logger });
      if (isRetryLater(result)) await this.scheduleRetry(channel, message, result.retryAfterMs, logger);
      settle(logger, () => channel.ack(message));
      messagesTotal.inc({ queue, outcome: isRetryLater(result) ? "retried" : "handled" });
    } catch (err) {
      const deadLettered = deliveries > this.topology.deliveryLimit;
      logger[deadLettered ? "error" : "warn"](deadLettered ? "handler failed at the delivery limit; dead-lettered" : "handler failed; requeued", { error: String(err) });
      if (!deadLettered) await this.pauseBeforeRequeue(deliveries);
      settle(logger, () => channel.nack(message, false, true));
      messagesTotal.inc({ queue, outcome: deadLettered ? "dead_lettered" : "requeued" });
    }
  }

  /** The handler and payload of a valid message, or what is wrong with it; with the JSON body either way (undefined when it is not JSON). */
  private decode(message: ConsumeMessage): { handler: AnyHandler; payload: unknown; messageId: string; type: MessageType; body: unknown } | { problem: string; body: unknown } {
    let body: unknown;
    try {
      body = JSON.parse(message.content.toString("utf8"));
    } catch {
      body = undefined;
    }
    const { messageId, type } = message.properties as { messageId?: unknown; type?: unknown };
    if (typeof messageId !== "string" || messageId === "") return { problem: "no message id", body };
    if (!isMessageType(type)) return { problem: `unknown message type ${String(type)}`, body };
    // The map pairs each type with the handler of its own payload; the schema below checks that payload.
    const handler = this.options.handlers[type] as AnyHandler | undefined;
    if (!handler) return { problem: `no handler for ${type} on this queue`, body };
    if (body === undefined) return { problem: "body is not JSON", body };
    const parsed = messageRegistry[type].schema.safeParse(body);
    if (!parsed.success) return { problem: z.prettifyError(parsed.error), body };
    return { handler, payload: parsed.data, messageId, type, body };
  }

  /** Copies the message into the delay queue (confirmed) before the original is acked. */
  private async scheduleRetry(channel: ConfirmChannel, message: ConsumeMessage, delayMs: number, logger: Logger): Promise<void> {
    const tier = delayTierFor(delayMs, this.topology.retryDelaysMs);
    const retries = retryCount(message) + 1;
    await publishConfirmed(channel, "", this.topology.names.delay(this.options.queue, tier), message.content, republishOptions(message, { [RETRIES_HEADER]: retries }));
    logger.info("retry scheduled", { delayMs: tier, retries });
  }

  private async pauseBeforeRequeue(deliveries: number): Promise<void> {
    const { base, max } = this.options.requeueDelayMs ?? { base: 200, max: 5_000 };
    const delay = Math.min(max, base * 2 ** (deliveries - 1));
    // stop() cuts the pause short: the message is requeued at once for another consumer.
    if (delay > 0) await sleep(delay, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }
}

function settle(logger: Logger, settleOnChannel: () => void): void {
  try {
    settleOnChannel();
  } catch (err) {
    // The channel closed meanwhile; the broker has already requeued the message.
    logger.warn("could not settle message on a closed channel", { error: String(err) });
  }
}
