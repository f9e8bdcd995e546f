import type { ConfirmChannel, Message, MessagePropertyHeaders, Options } from "amqplib";

/** What a message carries besides its routing: JSON payload, id (idempotency key), type, creation time. */
export interface Envelope {
  messageId: string;
  type: string;
  timestamp: Date;
  payload: unknown;
}

/** Our header counting delayed retries; a replay from a DLQ starts again at zero. */
export const RETRIES_HEADER = "x-retries";

export function encodeEnvelope(envelope: Envelope): { content: Buffer; options: Options.Publish } {
  return {
    content: Buffer.from(JSON.stringify(envelope.payload)),
    options: {
      persistent: true,
      contentType: "application/json",
      messageId: envelope.messageId,
      type: envelope.type,
      // AMQP timestamps are whole seconds.
      timestamp: Math.floor(envelope.timestamp.getTime() / 1000),
    },
  };
}

/**
 * Properties for publishing a delivered message again (retry or replay): same id, type, timestamp
 * and body. The broker's bookkeeping headers are dropped so the copy starts a fresh history.
 */
export function republishOptions(message: Message, headers: MessagePropertyHeaders = {}): Options.Publish {
  const { messageId, type, timestamp, contentType } = message.properties as { messageId?: string; type?: string; timestamp?: number; contentType?: string };
  const kept = Object.fromEntries(
    Object.entries(message.properties.headers ?? {}).filter(([name]) => !name.startsWith("x-death") && !name.startsWith("x-first-death") && name !== "x-delivery-count" && name !== RETRIES_HEADER),
  );
  return { persistent: true, messageId, type, timestamp, contentType, headers: { ...kept, ...headers } };
}

export function publishConfirmed(channel: ConfirmChannel, exchange: string, routingKey: string, content: Buffer, options: Options.Publish): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.publish(exchange, routingKey, content, options, (err) => (err ? reject(err) : resolve()));
  });
}

/** How many times the broker has delivered this message from its current queue, this delivery included. */
export function deliveryCount(message: Message): number {
  return Number(message.properties.headers?.["x-delivery-count"] ?? 0) + 1;
}

export function retryCount(message: Message): number {
  return Number(message.properties.headers?.[RETRIES_HEADER] ?? 0);
}

export interface Death {
  queue: string;
  reason: string;
  count: number;
  time?: Date;
}

/** The x-death header, most recent death first. */
export function deaths(message: Message): Death[] {
  const raw: unknown = message.properties.headers?.["x-death"];
  if (!Array.isArray(raw)) return [];
  return raw.map((entry: Record<string, unknown>) => ({
    queue: String(entry.queue),
    reason: String(entry.reason),
    count: Number(entry.count ?? 1),
    time: amqpTime(entry.time),
  }));
}

// amqplib decodes a timestamp inside a header table as {"!": "timestamp", value: seconds}.
function amqpTime(value: unknown): Date | undefined {
  const seconds = typeof value === "object" && value !== null && "value" in value ? Number(value.value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(seconds) ? new Date(seconds * 1000) : undefined;
}
