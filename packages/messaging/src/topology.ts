import type { Channel } from "amqplib";
import { queueNames, type QueueNames } from "./names";

export interface TopologyOptions {
  /** Chains served: one batcher and one sender queue each. */
  chainIds: readonly number[];
  prefix?: string;
  /** A message nacked with requeue is delivered deliveryLimit + 1 times, then dead-lettered. */
  deliveryLimit?: number;
  /** Delay tiers for retries, one delay queue per work queue and tier. */
  retryDelaysMs?: readonly number[];
}

export interface WorkQueue {
  name: string;
  singleActiveConsumer: boolean;
}

export interface Topology {
  names: QueueNames;
  chainIds: readonly number[];
  deliveryLimit: number;
  retryDelaysMs: readonly number[];
  workQueues: readonly WorkQueue[];
}

/**
 * Queue arguments cannot change once declared (a redeclare with other arguments fails), so every
 * service of one deployment must use the same deliveryLimit and retryDelaysMs: keep the defaults.
 */
export const DEFAULT_DELIVERY_LIMIT = 5;
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 3_600_000];

export function defineTopology(options: TopologyOptions): Topology {
  const names = queueNames(options.prefix);
  const retryDelaysMs = [...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)].sort((a, b) => a - b);
  const deliveryLimit = options.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT;
  for (const n of [...options.chainIds, ...retryDelaysMs, deliveryLimit]) {
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`chain ids, delays and the delivery limit must be positive integers, got ${n}`);
  }
  if (retryDelaysMs.length === 0) throw new Error("at least one retry delay tier is needed");
  const chainIds = [...new Set(options.chainIds)];
  return {
    names,
    chainIds,
    deliveryLimit,
    retryDelaysMs,
    workQueues: [
      ...chainIds.flatMap((chainId) => [
        { name: names.batcher(chainId), singleActiveConsumer: false },
        { name: names.sender(chainId), singleActiveConsumer: true },
      ]),
      { name: names.ledger(), singleActiveConsumer: false },
      { name: names.events(), singleActiveConsumer: false },
    ],
  };
}

/** Every dead-letter queue an operator looks at: one per work queue, plus the unrouted queue. */
export function deadLetterQueues(topology: Topology): string[] {
  return [...topology.workQueues.map((q) => topology.names.deadLetter(q.name)), topology.names.unrouted()];
}

// Quorum queues: replicated, and the only queue type with a delivery limit. At-least-once
// dead-lettering keeps a message in its source queue until the target confirmed it, so the hop
// to a DLQ or back from a delay queue cannot lose it; it requires x-overflow reject-publish, which
// has no effect here because no queue has a length limit.
const quorum = { "x-queue-type": "quorum" };
const safeDeadLettering = { "x-dead-letter-strategy": "at-least-once", "x-overflow": "reject-publish" };

/**
 * Declares the topology; idempotent, run again on every (re)connected channel.
 *
 * Delays without head-of-line blocking: RabbitMQ expires messages only at the head of a queue, so a
 * shared delay queue with per-message TTLs would let a long delay at the head hold back shorter
 * ones behind it. Instead each work queue has one delay queue per tier with a queue-wide TTL: all
 * messages of a queue share the TTL and therefore expire in arrival order. An expired message is
 * dead-lettered through the default exchange straight back to its work queue.
 */
export async function assertTopology(channel: Channel, topology: Topology): Promise<void> {
  const { names } = topology;
  await Promise.all([
    channel.assertExchange(names.unroutedExchange, "fanout", { durable: true }),
    channel.assertExchange(names.workExchange, "direct", { durable: true, alternateExchange: names.unroutedExchange }),
    channel.assertExchange(names.deadLetterExchange, "direct", { durable: true }),
    channel.assertQueue(names.unrouted(), { durable: true, arguments: quorum }),
  ]);
  await channel.bindQueue(names.unrouted(), names.unroutedExchange, "");
  await Promise.all(topology.workQueues.map((queue) => assertWorkQueue(channel, topology, queue)));
}

async function assertWorkQueue(channel: Channel, { names, deliveryLimit, retryDelaysMs }: Topology, queue: WorkQueue): Promise<void> {
  const deadLetter = names.deadLetter(queue.name);
  await Promise.all([
    channel.assertQueue(queue.name, {
      durable: true,
      arguments: {
        ...quorum,
        ...safeDeadLettering,
        "x-delivery-limit": deliveryLimit,
        "x-dead-letter-exchange": names.deadLetterExchange,
        "x-dead-letter-routing-key": queue.name,
        ...(queue.singleActiveConsumer ? { "x-single-active-consumer": true } : {}),
      },
    }),
    // No delivery limit and no dead-lettering: inspecting a DLQ (get, then nack with requeue) must never drop a message.
    channel.assertQueue(deadLetter, { durable: true, arguments: quorum }),
    ...retryDelaysMs.map((delayMs) =>
      channel.assertQueue(names.delay(queue.name, delayMs), {
        durable: true,
        arguments: { ...quorum, ...safeDeadLettering, "x-message-ttl": delayMs, "x-dead-letter-exchange": "", "x-dead-letter-routing-key": queue.name },
      }),
    ),
  ]);
  await Promise.all([
    channel.bindQueue(queue.name, names.workExchange, queue.name),
    channel.bindQueue(deadLetter, names.deadLetterExchange, queue.name),
  ]);
}
