import { randomUUID } from "node:crypto";
import { createLogger } from "@sweep/common";
import {
  assertTopology,
  connectBroker,
  deadLetterQueues,
  defineTopology,
  deleteTopology,
  openDeadLetters,
  type BrokerConnection,
  type DeadLetters,
  type Topology,
} from "@sweep/messaging";
import { formatAge, listDeadLetterQueues, purgeDeadLetters, replayDeadLetters, showDeadLetters } from "./dlq-commands";
import { captureOutput, type CapturedOutput } from "./test-support";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("an age for people", () => {
  it.each([
    [0, "0s"],
    [59, "59s"],
    [60, "1m 00s"],
    [192, "3m 12s"],
    [3_600, "1h 00m"],
    [7_500, "2h 05m"],
    [86_399, "23h 59m"],
    [86_400 * 4 + 3_600 * 7 + 59, "4d 07h"],
  ])("%i s is %s", (seconds, text) => {
    expect(formatAge(seconds)).toBe(text);
  });
});

describe("dlq commands", () => {
  // A topology of its own (unique prefix): the queues of a running stack are never touched.
  let topology: Topology;
  let deadLetters: DeadLetters;
  let connection: BrokerConnection;
  let channel: ReturnType<BrokerConnection["createChannel"]>;

  beforeAll(async () => {
    topology = defineTopology({ chainIds: [97], prefix: `cli-test.${randomUUID().slice(0, 8)}` });
    const logger = createLogger("cli-test", "error");
    connection = await connectBroker(RABBITMQ_URL, { logger, connectTimeoutMs: 5_000 });
    // Declared as the services do; the dead-letter operations only check that it is there.
    channel = connection.createChannel({ confirm: true, setup: (ch: Parameters<typeof assertTopology>[0]) => assertTopology(ch, topology) });
    await channel.waitForConnect();
    deadLetters = await openDeadLetters(RABBITMQ_URL, topology);
  });
  afterAll(async () => {
    await deadLetters.close();
    await deleteTopology(RABBITMQ_URL, topology);
    await connection.close();
  });

  const ledger = () => topology.names.ledger();
  const ledgerDlq = () => topology.names.deadLetter(ledger());

  beforeEach(async () => {
    await Promise.all([channel.purgeQueue(ledger()), channel.purgeQueue(ledgerDlq())]);
  });

  const diedAt = new Date("2026-01-02T03:04:05Z");

  /** A message as the broker dead-letters it from the ledger queue after too many deliveries. */
  async function deadLetter(): Promise<string> {
    const messageId = randomUUID();
    // amqplib writes a typed header value given as {"!": type, value}.
    const time = { "!": "timestamp", value: diedAt.getTime() / 1000 };
    const death = { queue: ledger(), reason: "delivery_limit", count: 1, time, exchange: "", "routing-keys": [ledger()] };
    await channel.sendToQueue(ledgerDlq(), Buffer.from(JSON.stringify({ chainId: 97 })), {
      persistent: true,
      messageId,
      type: "tx.outcome",
      headers: { "x-death": [death] },
    });
    return messageId;
  }

  type DlqContext = { out: CapturedOutput; deadLetters: () => Promise<DeadLetters> };
  /** Runs a command as sweepctl would: what --json prints, and the lines printed without it. */
  async function run(command: (ctx: DlqContext) => Promise<void>): Promise<{ json: unknown; lines: string[] }> {
    const ctx = { out: captureOutput(), deadLetters: async () => deadLetters };
    await command(ctx);
    return { json: ctx.out.results[0], lines: ctx.out.lines };
  }

  it("lists every dead-letter queue with its count and oldest age, shows messages in place, purges one by id", async () => {
    const [first, second] = [await deadLetter(), await deadLetter()];

    const listed = await run((ctx) => listDeadLetterQueues(ctx));
    const queues = (listed.json as { queues: Array<{ queue: string; messages: number; oldest_age_seconds: number | null }> }).queues;
    expect(queues.map((q) => q.queue).sort()).toEqual(deadLetterQueues(topology).sort());
    expect(queues.find((q) => q.queue === ledgerDlq())).toEqual({ queue: ledgerDlq(), messages: 2, oldest_age_seconds: expect.any(Number) });
    expect(queues.find((q) => q.queue === topology.names.unrouted())).toEqual({ queue: topology.names.unrouted(), messages: 0, oldest_age_seconds: null });
    expect(listed.lines[0]).toMatch(/^QUEUE +MESSAGES {2}OLDEST$/);
    expect(listed.lines).toContainEqual(expect.stringMatching(new RegExp(`^${ledgerDlq().replaceAll(".", "\\.")} +2 {2}\\d+d \\d\\dh$`)));
    expect(listed.lines).toContainEqual(expect.stringMatching(new RegExp(`^${topology.names.unrouted().replaceAll(".", "\\.")} +0 {2}-$`)));

    const shown = await run((ctx) => showDeadLetters(ctx, ledgerDlq(), 1));
    expect(shown.json).toEqual({
      queue: ledgerDlq(),
      total: 2,
      messages: [
        {
          message_id: first,
          type: "tx.outcome",
          reason: "delivery_limit",
          deliveries: topology.deliveryLimit + 1,
          original_queue: ledger(),
          dead_lettered_at: diedAt.toISOString(),
          payload: '{"chainId":97}',
        },
      ],
    });
    expect(shown.lines).toEqual([
      `${ledgerDlq()}: the first 1 of 2 message(s)`,
      `${first}  tx.outcome  delivery_limit after ${topology.deliveryLimit + 1} deliveries  from ${ledger()}  at ${diedAt.toISOString()}`,
      `  {"chainId":97}`,
    ]);

    expect((await run((ctx) => purgeDeadLetters(ctx, ledgerDlq(), { id: first }))).json).toEqual({ queue: ledgerDlq(), purged: 1 });
    await expect(run((ctx) => purgeDeadLetters(ctx, ledgerDlq(), { id: first }))).rejects.toThrow(`no message ${first} in ${ledgerDlq()}; nothing purged`);
    const rest = (await run((ctx) => showDeadLetters(ctx, ledgerDlq(), 10))).json as { total: number; messages: Array<{ message_id: string }> };
    expect(rest).toMatchObject({ total: 1, messages: [{ message_id: second }] });
    const purged = await run((ctx) => purgeDeadLetters(ctx, ledgerDlq(), {}));
    expect(purged).toEqual({ json: { queue: ledgerDlq(), purged: 1 }, lines: [`purged 1 message(s) from ${ledgerDlq()} (all it held)`] });
    expect((await run((ctx) => showDeadLetters(ctx, ledgerDlq(), 10))).lines).toEqual([`${ledgerDlq()} is empty`]);
  });

  it("replays messages back to the work queue they died in, one by id or up to a limit, and names each", async () => {
    const [first, second, third] = [await deadLetter(), await deadLetter(), await deadLetter()];
    expect(await run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: Number.POSITIVE_INFINITY, id: second }))).toEqual({
      json: { queue: ledgerDlq(), replayed: 1, messages: [{ message_id: second, type: "tx.outcome", to: ledger() }] },
      lines: [`replayed 1 message(s) from ${ledgerDlq()}`, `  ${second}  tx.outcome  to ${ledger()}`],
    });
    await expect(run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: 1, id: second }))).rejects.toThrow(`no message ${second} in ${ledgerDlq()}; nothing replayed`);
    expect((await run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: 1 }))).json).toMatchObject({ replayed: 1, messages: [{ message_id: first }] });
    expect((await run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: Number.POSITIVE_INFINITY }))).json).toMatchObject({ replayed: 1, messages: [{ message_id: third }] });
    expect((await run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: Number.POSITIVE_INFINITY }))).json).toEqual({ queue: ledgerDlq(), replayed: 0, messages: [] });
    expect((await channel.checkQueue(ledger())).messageCount).toBe(3);
    expect((await channel.checkQueue(ledgerDlq())).messageCount).toBe(0);
  });

  it("refuses a queue that is not a dead-letter queue", async () => {
    await expect(run((ctx) => purgeDeadLetters(ctx, ledger(), {}))).rejects.toThrow(`${ledger()} is a work queue; its dead letters are in ${ledgerDlq()}`);
  });
});
