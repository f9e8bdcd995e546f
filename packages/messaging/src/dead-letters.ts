import { setTimeout as sleep } from "node:timers/promises";
import amqplib, { type ConfirmChannel, type GetMessage } from "amqplib";
import { deadLetterQueues, type Topology } from "./topology";
import { deaths, publishConfirmed, republishOptions } from "./wire";

export interface DeadLetterQueueSummary {
  queue: string;
  messages: number;
  /** Since the oldest message was dead-lettered; absent when the queue is empty. */
  oldestAgeSeconds?: number;
}

export interface DeadLetter {
  messageId?: string;
  type?: string;
  /** From x-death: delivery_limit (kept failing), rejected (invalid, never retried); "unrouted" when no queue was bound. */
  reason: string;
  /** The work queue the message died in. */
  originalQueue?: string;
  deadLetteredAt?: string;
  /**
   * Deliveries from the work queue before it died: delivery_limit, the queue's limit + 1; rejected, 1 (an invalid message
   * is refused on the delivery it is first seen, never retried); unrouted, 0. The broker keeps no count of its own: a
   * quorum queue's x-delivery-count restarts in the DLQ.
   */
  deliveries?: number;
  /** The start of the JSON body. */
  payload: string;
}

/** A message sent back by a replay, and the queue it went to. */
export interface Replayed {
  messageId?: string;
  type?: string;
  queue: string;
}

export interface DeadLetters {
  /** The dead-letter queues of the topology, the only queues these operations accept. */
  queues(): string[];
  listDeadLetters(): Promise<DeadLetterQueueSummary[]>;
  /** How many messages the queue holds. */
  countDeadLetters(queue: string): Promise<number>;
  showDeadLetters(queue: string, limit: number): Promise<DeadLetter[]>;
  /** Publishes messages back to the work queue they died in (confirmed), then removes them, from the head; returns them. */
  replayDeadLetters(queue: string, options: { limit: number; id?: string }): Promise<Replayed[]>;
  /** Removes every message, or those with the given message id; returns how many. */
  purgeDeadLetters(queue: string, options?: { id?: string }): Promise<number>;
  close(): Promise<void>;
}

const PAYLOAD_SUMMARY_CHARS = 200;
/** Requeued messages become ready again asynchronously; longer than this means someone else took them. */
const RETURN_WAIT_MS = 5_000;

/**
 * Dead-letter operations for the operators' CLI, on a plain connection (one-shot commands: errors
 * should surface, not be retried).
 *
 * Inspection is non-destructive and keeps the order: RabbitMQ offers no peek, and a quorum queue puts
 * a requeued message at its tail, so an inspection takes every message of the queue unacked and
 * then requeues them all at once, which puts the whole queue back in its original order (only
 * messages dead-lettered during the inspection end up ahead of them). The cost is one get per
 * message in the queue. Operations on one instance run one at a time.
 *
 * It declares nothing: the services declare the topology, and a queue missing here means the wrong
 * broker, AMQP_PREFIX or SERVICE_ENV, which must fail loudly rather than show a new, empty topology.
 */
export async function openDeadLetters(url: string, topology: Topology): Promise<DeadLetters> {
  const connection = await amqplib.connect(url);
  try {
    await requireTopology(connection, topology);
    const channel = await connection.createConfirmChannel();
    return new DeadLetterOperations(connection, channel, topology);
  } catch (err) {
    await connection.close();
    throw err;
  }
}

/** Checks (passively) that the work exchange and every work and dead-letter queue exist; a replay publishes to them. */
async function requireTopology(connection: amqplib.ChannelModel, topology: Topology): Promise<void> {
  // A passive check of a missing queue closes its channel with an error: a throwaway channel, listened to.
  const channel = await connection.createChannel();
  channel.on("error", () => undefined);
  const hint = `the services declare it when they start: check RABBITMQ_URL, AMQP_PREFIX (${JSON.stringify(topology.names.prefix)}) and SERVICE_ENV`;
  try {
    await channel.checkExchange(topology.names.workExchange);
  } catch {
    throw new Error(`exchange ${topology.names.workExchange} does not exist on the broker; ${hint}`);
  }
  for (const queue of [...topology.workQueues.map((q) => q.name), ...deadLetterQueues(topology)]) {
    try {
      await channel.checkQueue(queue);
    } catch {
      throw new Error(`queue ${queue} does not exist on the broker; ${hint}`);
    }
  }
  await channel.close();
}

class DeadLetterOperations implements DeadLetters {
  private readonly dlqs: string[];
  private readonly workQueues: Set<string>;
  private tail: Promise<unknown> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly connection: amqplib.ChannelModel,
    private readonly channel: ConfirmChannel,
    private readonly topology: Topology,
  ) {
    this.dlqs = deadLetterQueues(topology);
    // Failures reject the operation under way; the listeners keep them from also crashing the process.
    for (const emitter of [connection, channel]) {
      emitter.on("error", () => (this.failed = true));
      emitter.on("close", () => (this.failed = true));
    }
    this.workQueues = new Set(topology.workQueues.map((q) => q.name));
  }

  queues(): string[] {
    return [...this.dlqs];
  }

  listDeadLetters(): Promise<DeadLetterQueueSummary[]> {
    return this.exclusive(async () => {
      const now = Date.now();
      const summaries: DeadLetterQueueSummary[] = [];
      for (const queue of this.dlqs) {
        let messages = 0;
        let oldest: number | undefined;
        await this.rotate(queue, async (message) => {
          messages += 1;
          const at = deadLetteredAt(message)?.getTime();
          if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at;
          return false;
        });
        summaries.push({ queue, messages, ...(oldest === undefined ? {} : { oldestAgeSeconds: Math.max(0, Math.floor((now - oldest) / 1000)) }) });
      }
      return summaries;
    });
  }

  countDeadLetters(queue: string): Promise<number> {
    return this.exclusive(async () => {
      this.requireDeadLetterQueue(queue);
      return (await this.channel.checkQueue(queue)).messageCount;
    });
  }

  showDeadLetters(queue: string, limit: number): Promise<DeadLetter[]> {
    return this.exclusive(async () => {
      this.requireDeadLetterQueue(queue);
      const shown: DeadLetter[] = [];
      await this.rotate(queue, async (message) => {
        if (shown.length < limit) shown.push(this.describe(queue, message));
        return false;
      });
      return shown;
    });
  }

  replayDeadLetters(queue: string, options: { limit: number; id?: string }): Promise<Replayed[]> {
    return this.exclusive(async () => {
      this.requireDeadLetterQueue(queue);
      const replayed: Replayed[] = [];
      if (options.id === undefined) {
        // From the head: nothing else is taken, so the order of the rest is untouched. At most what
        // the queue held when asked: a replayed message that dies again at once is not taken twice.
        const { messageCount } = await this.channel.checkQueue(queue);
        while (replayed.length < Math.min(options.limit, messageCount)) {
          const message = await this.channel.get(queue);
          if (message === false) break;
          replayed.push(await this.replay(queue, message));
        }
      } else {
        await this.rotate(queue, async (message) => {
          if (replayed.length >= options.limit || message.properties.messageId !== options.id) return false;
          replayed.push(await this.replay(queue, message));
          return true;
        });
      }
      return replayed;
    });
  }

  purgeDeadLetters(queue: string, options: { id?: string } = {}): Promise<number> {
    return this.exclusive(async () => {
      this.requireDeadLetterQueue(queue);
      if (options.id === undefined) return (await this.channel.purgeQueue(queue)).messageCount;
      let purged = 0;
      await this.rotate(queue, async (message) => {
        if (message.properties.messageId !== options.id) return false;
        this.channel.ack(message);
        purged += 1;
        return true;
      });
      return purged;
    });
  }

  async close(): Promise<void> {
    await this.tail;
    if (this.failed) return;
    // The channel first: closing the connection at once can lose the last acks on a quorum queue
    // (RabbitMQ 3.10), which would leave a replayed or purged message in its DLQ as well.
    await this.channel.close();
    await this.connection.close();
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.tail.then(operation, operation);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private requireDeadLetterQueue(queue: string): void {
    if (this.dlqs.includes(queue)) return;
    const yours = this.workQueues.has(queue) ? `${queue} is a work queue; its dead letters are in ${this.topology.names.deadLetter(queue)}` : `${queue} is not a dead-letter queue`;
    throw new Error(`${yours}; the dead-letter queues are ${this.dlqs.join(", ")}`);
  }

  /**
   * Takes every message now in the queue; those visit did not settle (it returns true when it acked)
   * go back, in their order. Resolves once the broker counts them as ready again, so that the next
   * operation sees them.
   */
  private async rotate(queue: string, visit: (message: GetMessage) => Promise<boolean>): Promise<void> {
    const { messageCount } = await this.channel.checkQueue(queue);
    let kept = 0;
    try {
      for (let i = 0; i < messageCount; i++) {
        const message = await this.channel.get(queue);
        if (message === false) break;
        if (!(await visit(message))) kept += 1;
      }
    } finally {
      // On a channel that failed, the broker has already requeued them all.
      if (!this.failed) this.channel.nackAll(true);
    }
    const deadline = Date.now() + RETURN_WAIT_MS;
    while ((await this.channel.checkQueue(queue)).messageCount < kept && Date.now() < deadline) await sleep(10);
  }

  /** Back to the work queue it died in, as a new message with the same id, type and body; then acked here. */
  private async replay(queue: string, message: GetMessage): Promise<Replayed> {
    const target = this.replayTarget(queue, message);
    if (target === undefined) {
      this.channel.nack(message, false, true);
      throw new Error(`cannot tell where message ${message.properties.messageId ?? "(no id)"} in ${queue} came from; left in place`);
    }
    await publishConfirmed(this.channel, target.exchange, target.routingKey, message.content, republishOptions(message));
    this.channel.ack(message);
    const { messageId, type } = message.properties as { messageId?: string; type?: string };
    return { messageId, type, queue: target.routingKey };
  }

  private replayTarget(queue: string, message: GetMessage): { exchange: string; routingKey: string } | undefined {
    const death = deaths(message).find((d) => d.reason !== "expired");
    // Only to a work queue of this topology: a publish to a queue that does not exist would be dropped.
    if (death) return this.workQueues.has(death.queue) ? { exchange: "", routingKey: death.queue } : undefined;
    // Unrouted: publish as first sent, now that a queue may be bound for it (if not, it comes back here).
    if (queue === this.topology.names.unrouted()) return { exchange: message.fields.exchange, routingKey: message.fields.routingKey };
    return undefined;
  }

  private describe(queue: string, message: GetMessage): DeadLetter {
    const death = deaths(message).find((d) => d.reason !== "expired");
    const reason = death?.reason ?? (queue === this.topology.names.unrouted() ? "unrouted" : "unknown");
    const body = message.content.toString("utf8");
    return {
      messageId: message.properties.messageId as string | undefined,
      type: message.properties.type as string | undefined,
      reason,
      originalQueue: death?.queue ?? (reason === "unrouted" ? message.fields.routingKey : undefined),
      deadLetteredAt: deadLetteredAt(message)?.toISOString(),
      deliveries: deliveriesBeforeDeath(reason, this.topology.deliveryLimit),
      payload: body.length > PAYLOAD_SUMMARY_CHARS ? `${body.slice(0, PAYLOAD_SUMMARY_CHARS)}…` : body,
    };
  }
}

export function deliveriesBeforeDeath(reason: string, deliveryLimit: number): number | undefined {
  if (reason === "delivery_limit") return deliveryLimit + 1;
  if (reason === "rejected") return 1;
  if (reason === "unrouted") return 0;
  return undefined;
}

function deadLetteredAt(message: GetMessage): Date | undefined {
  const timestamp = message.properties.timestamp as number | undefined;
  return deaths(message).find((d) => d.reason !== "expired")?.time ?? (timestamp === undefined ? undefined : new Date(timestamp * 1000));
}
