import { attemptFailureReasons } from "@sweep/common";
import { z } from "zod";
import type { QueueNames } from "./names";

const chainId = z.number().int().positive();
const id = z.uuid();

function message<S extends z.ZodType>(schema: S, queue: (payload: z.output<S>, names: QueueNames) => string) {
  return { schema, queue };
}

/** Every message type: its payload schema (the type and the validator) and the queue it goes to. */
export const messageRegistry = {
  "sweep.queued": message(z.object({ sweepId: id, chainId, hotWalletId: id }), (p, names) => names.batcher(p.chainId)),
  /** a hot wallet may have sweeps to batch: its last batch settled, or a retry pause ended */
  "hot_wallet.wake": message(z.object({ hotWalletId: id, chainId }), (p, names) => names.batcher(p.chainId)),
  "revocation.queued": message(z.object({ revocationId: id, chainId }), (p, names) => names.batcher(p.chainId)),
  "batch.ready": message(z.object({ batchId: id, chainId }), (p, names) => names.sender(p.chainId)),
  "hot_wallet.deploy": message(z.object({ hotWalletId: id, chainId }), (p, names) => names.sender(p.chainId)),
  "tx.outcome": message(z.object({ chainId, transactionId: id }), (_p, names) => names.ledger()),
  /** a batch whose transaction never went through (an attempt failure: its items go back to queued or fail) */
  "batch.failed": message(z.object({ batchId: id, chainId, reason: z.enum(attemptFailureReasons) }), (_p, names) => names.ledger()),
  "event.recorded": message(z.object({ eventId: id }), (_p, names) => names.events()),
};

type Registry = typeof messageRegistry;
export type MessageType = keyof Registry;
export type MessagePayload<T extends MessageType> = z.output<Registry[T]["schema"]>;

export function isMessageType(type: unknown): type is MessageType {
  return typeof type === "string" && Object.hasOwn(messageRegistry, type);
}

/** Validates a payload against its type's schema; throws a ZodError when it does not fit. */
export function parsePayload<T extends MessageType>(type: T, payload: unknown): MessagePayload<T> {
  return messageRegistry[type].schema.parse(payload) as MessagePayload<T>;
}

/** Validates the payload and names the work queue it goes to (also the routing key on the work exchange). */
export function routeMessage<T extends MessageType>(type: T, payload: MessagePayload<T>, names: QueueNames): { queue: string; payload: MessagePayload<T> } {
  const parsed = parsePayload(type, payload);
  const queue = (messageRegistry[type].queue as (p: MessagePayload<T>, n: QueueNames) => string)(parsed, names);
  return { queue, payload: parsed };
}
