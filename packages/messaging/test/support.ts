import { randomUUID } from "node:crypto";
import { createLogger } from "@sweep/common";
import amqplib from "amqplib";
import { connectBroker, type BrokerConnection } from "../src/connection";
import { defineTopology, type Topology, type TopologyOptions } from "../src/topology";
import { deleteTopology as deleteTopologyOf } from "../src/topology-teardown";

export const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";
export const logger = createLogger("messaging-test", "debug");
// The tests provoke failures on purpose; their logs are noise unless asked for.
logger.silent = process.env.LOG_LEVEL !== "debug";

/** Small limits so failures reach the DLQ fast; a unique prefix so runs never share a queue. */
export function testTopologyOptions(overrides: Partial<TopologyOptions> = {}): TopologyOptions {
  return { chainIds: [97], prefix: `test.${randomUUID().slice(0, 8)}`, deliveryLimit: 2, retryDelaysMs: [300, 1_000], ...overrides };
}

export function testTopology(overrides: Partial<TopologyOptions> = {}): Topology {
  return defineTopology(testTopologyOptions(overrides));
}

export function connect(): Promise<BrokerConnection> {
  return connectBroker(RABBITMQ_URL, { logger, connectTimeoutMs: 5_000 });
}

/** Deletes every queue and exchange the topology declared. */
export function deleteTopology(topology: Topology): Promise<void> {
  return deleteTopologyOf(RABBITMQ_URL, topology);
}

/** Publishes raw bytes to a queue, as a broken or foreign producer would. */
export async function sendRaw(queue: string, content: string, properties: amqplib.Options.Publish): Promise<void> {
  const connection = await amqplib.connect(RABBITMQ_URL);
  try {
    const channel = await connection.createConfirmChannel();
    channel.sendToQueue(queue, Buffer.from(content), { persistent: true, ...properties });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

export async function messageCount(queue: string): Promise<number> {
  const connection = await amqplib.connect(RABBITMQ_URL);
  try {
    const channel = await connection.createChannel();
    return (await channel.checkQueue(queue)).messageCount;
  } finally {
    await connection.close();
  }
}

export async function queueExists(queue: string): Promise<boolean> {
  const connection = await amqplib.connect(RABBITMQ_URL);
  try {
    const channel = await connection.createChannel();
    // A passive check of a missing queue closes the channel with an error event.
    channel.on("error", () => undefined);
    return await channel.checkQueue(queue).then(
      () => true,
      () => false,
    );
  } finally {
    await connection.close();
  }
}

export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export const uuid = randomUUID;
