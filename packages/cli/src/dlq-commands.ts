import type { CommandContext } from "./context";

type DlqContext = Pick<CommandContext, "out" | "deadLetters">;

/** `dlq list`: every dead-letter queue with its message count and the age of its oldest message. */
export async function listDeadLetterQueues(ctx: DlqContext): Promise<void> {
  const queues = await (await ctx.deadLetters()).listDeadLetters();
  ctx.out.result(
    { queues: queues.map((q) => ({ queue: q.queue, messages: q.messages, oldest_age_seconds: q.oldestAgeSeconds ?? null })) },
    queues.map((q) => `${q.queue.padEnd(32)} ${String(q.messages).padStart(6)}${q.oldestAgeSeconds === undefined ? "" : `  oldest ${q.oldestAgeSeconds} s`}`),
  );
}

/** `dlq show QUEUE`: the first messages, left in place and in order. */
export async function showDeadLetters(ctx: DlqContext, queue: string, limit: number): Promise<void> {
  const messages = await (await ctx.deadLetters()).showDeadLetters(queue, limit);
  ctx.out.result(
    {
      queue,
      messages: messages.map((m) => ({
        message_id: m.messageId ?? null,
        type: m.type ?? null,
        reason: m.reason,
        original_queue: m.originalQueue ?? null,
        dead_lettered_at: m.deadLetteredAt ?? null,
        deliveries: m.deliveries ?? null,
        payload: m.payload,
      })),
    },
    messages.length === 0
      ? [`${queue} is empty`]
      : messages.flatMap((m) => [
          `${m.messageId ?? "(no id)"}  ${m.type ?? "(no type)"}  ${m.reason}  from ${m.originalQueue ?? "?"}  at ${m.deadLetteredAt ?? "?"}`,
          `  ${m.payload}`,
        ]),
  );
}

/** `dlq replay QUEUE`: back to the work queue each message died in, processed there like a new one. */
export async function replayDeadLetters(ctx: DlqContext, queue: string, options: { limit: number; id?: string }): Promise<void> {
  const replayed = await (await ctx.deadLetters()).replayDeadLetters(queue, options);
  ctx.out.result({ queue, replayed }, [`replayed ${replayed} message(s) from ${queue}`]);
}

/** `dlq purge QUEUE`: deletes every message, or the one with --id. */
export async function purgeDeadLetters(ctx: DlqContext, queue: string, options: { id?: string }): Promise<void> {
  const purged = await (await ctx.deadLetters()).purgeDeadLetters(queue, options);
  ctx.out.result({ queue, purged }, [`purged ${purged} message(s) from ${queue}`]);
}
