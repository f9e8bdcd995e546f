import type { DeadLetter } from "@sweep/messaging";
import type { CommandContext } from "./context";

type DlqContext = Pick<CommandContext, "out" | "deadLetters">;

/** `dlq list`: every dead-letter queue with its message count and the age of its oldest message. */
export async function listDeadLetterQueues(ctx: DlqContext): Promise<void> {
  const queues = await (await ctx.deadLetters()).listDeadLetters();
  const width = Math.max("QUEUE".length, ...queues.map((q) => q.queue.length));
  ctx.out.result({ queues: queues.map((q) => ({ queue: q.queue, messages: q.messages, oldest_age_seconds: q.oldestAgeSeconds ?? null })) }, [
    `${"QUEUE".padEnd(width)}  MESSAGES  OLDEST`,
    ...queues.map((q) => `${q.queue.padEnd(width)}  ${String(q.messages).padStart(8)}  ${q.oldestAgeSeconds === undefined ? "-" : formatAge(q.oldestAgeSeconds)}`),
  ]);
}

/** `dlq show QUEUE`: the first messages, left in place and in order. */
export async function showDeadLetters(ctx: DlqContext, queue: string, limit: number): Promise<void> {
  const deadLetters = await ctx.deadLetters();
  const messages = await deadLetters.showDeadLetters(queue, limit);
  // Counted after the inspection: messages dead-lettered meanwhile are counted, not shown.
  const total = await deadLetters.countDeadLetters(queue);
  ctx.out.result(
    {
      queue,
      total,
      messages: messages.map((m) => ({
        message_id: m.messageId ?? null,
        type: m.type ?? null,
        reason: m.reason,
        deliveries: m.deliveries ?? null,
        original_queue: m.originalQueue ?? null,
        dead_lettered_at: m.deadLetteredAt ?? null,
        payload: m.payload,
      })),
    },
    messages.length === 0
      ? [`${queue} is empty`]
      : [`${queue}: ${messages.length === total ? `${total} message(s)` : `the first ${messages.length} of ${total} message(s)`}`, ...messages.flatMap(describe)],
  );
}

function describe(m: DeadLetter): string[] {
  const deliveries = m.deliveries === undefined ? "" : ` after ${m.deliveries} deliver${m.deliveries === 1 ? "y" : "ies"}`;
  return [
    `${m.messageId ?? "(no id)"}  ${m.type ?? "(no type)"}  ${m.reason}${deliveries}  from ${m.originalQueue ?? "?"}  at ${m.deadLetteredAt ?? "?"}`,
    `  ${m.payload}`,
  ];
}

/**
 * `dlq replay QUEUE`: back to the work queue each message died in, processed there like a new one. An --id that matches
 * nothing is an error: a mistyped id must not look like a replay done.
 */
export async function replayDeadLetters(ctx: DlqContext, queue: string, options: { limit: number; id?: string }): Promise<void> {
  const replayed = await (await ctx.deadLetters()).replayDeadLetters(queue, options);
  if (options.id !== undefined && replayed.length === 0) throw new Error(`no message ${options.id} in ${queue}; nothing replayed`);
  ctx.out.result(
    { queue, replayed: replayed.length, messages: replayed.map((m) => ({ message_id: m.messageId ?? null, type: m.type ?? null, to: m.queue })) },
    [`replayed ${replayed.length} message(s) from ${queue}`, ...replayed.map((m) => `  ${m.messageId ?? "(no id)"}  ${m.type ?? "(no type)"}  to ${m.queue}`)],
  );
}

/** `dlq purge QUEUE`: deletes every message, or those with --id (one that matches nothing is an error, as for replay). */
export async function purgeDeadLetters(ctx: DlqContext, queue: string, options: { id?: string }): Promise<void> {
  const purged = await (await ctx.deadLetters()).purgeDeadLetters(queue, options);
  if (options.id !== undefined && purged === 0) throw new Error(`no message ${options.id} in ${queue}; nothing purged`);
  ctx.out.result({ queue, purged }, [`purged ${purged} message(s) from ${queue}${options.id === undefined ? " (all it held)" : ` with id ${options.id}`}`]);
}

/** An age for people: the two largest units, "45s", "3m 12s", "2h 05m", "4d 07h". */
export function formatAge(seconds: number): string {
  const units: Array<[string, number]> = [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ];
  const first = units.findIndex(([, size]) => seconds >= size);
  if (first === -1 || first === units.length - 1) return `${seconds}s`;
  const [bigUnit, bigSize] = units[first]!;
  const [smallUnit, smallSize] = units[first + 1]!;
  const small = Math.floor((seconds % bigSize) / smallSize);
  return `${Math.floor(seconds / bigSize)}${bigUnit} ${String(small).padStart(2, "0")}${smallUnit}`;
}
