import { randomUUID } from "node:crypto";
import { createLogger } from "@sweep/common";
import { connectBroker, deadLetterQueues, defineTopology, deleteTopology, openDeadLetters, type BrokerConnection, type DeadLetters, type Topology } from "@sweep/messaging";
import { listDeadLetterQueues, purgeDeadLetters, replayDeadLetters, showDeadLetters } from "./dlq-commands";
import { captureOutput, type CapturedOutput } from "./test-support";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("dlq commands", () => {
  // A topology of its own (unique prefix): the queues of a running stack are never touched.
  let topology: Topology;
  let deadLetters: DeadLetters;
  let connection: BrokerConnection;
  let channel: ReturnType<BrokerConnection["createChannel"]>;

  beforeAll(async () => {
    topology = defineTopology({ chainIds: [97], prefix: `cli-test.${randomUUID().slice(0, 8)}` });
    deadLetters = await openDeadLetters(RABBITMQ_URL, topology);
    const logger = createLogger("cli-test", "error");
    connection = await connectBroker(RABBITMQ_URL, { logger, connectTimeoutMs: 5_000 });
    channel = connection.createChannel({ confirm: true });
  });
  afterAll(async () => {
    await deadLetters.close();
    await deleteTopology(RABBITMQ_URL, topology);
    await connection.close();
  });

  const ledger = () => topology.names.ledger();
  const ledgerDlq = () => topology.names.deadLetter(ledger());

  /** A message as the broker dead-letters it from the ledger queue after too many deliveries. */
  async function deadLetter(): Promise<string> {
    const messageId = randomUUID();
    const death = { queue: ledger(), reason: "delivery_limit", count: 1, exchange: "", "routing-keys": [ledger()] };
    await channel.sendToQueue(ledgerDlq(), Buffer.from(JSON.stringify({ chainId: 97 })), {
      persistent: true,
      messageId,
      type: "tx.outcome",
      headers: { "x-death": [death] },
    });
    return messageId;
  }

  type DlqContext = { out: CapturedOutput; deadLetters: () => Promise<DeadLetters> };
  async function run(command: (ctx: DlqContext) => Promise<void>): Promise<unknown> {
    const ctx = { out: captureOutput(), deadLetters: async () => deadLetters };
    await command(ctx);
    return ctx.out.results[0];
  }

  it("lists every dead-letter queue with its count, shows messages in place, purges one by id", async () => {
    const [first, second] = [await deadLetter(), await deadLetter()];

    const listed = (await run((ctx) => listDeadLetterQueues(ctx))) as { queues: Array<{ queue: string; messages: number }> };
    expect(listed.queues.map((q) => q.queue).sort()).toEqual(deadLetterQueues(topology).sort());
    expect(listed.queues.find((q) => q.queue === ledgerDlq())).toMatchObject({ messages: 2 });

    expect(await run((ctx) => showDeadLetters(ctx, ledgerDlq(), 1))).toEqual({
      queue: ledgerDlq(),
      messages: [expect.objectContaining({ message_id: first, type: "tx.outcome", reason: "delivery_limit", original_queue: ledger(), payload: '{"chainId":97}' })],
    });

    expect(await run((ctx) => purgeDeadLetters(ctx, ledgerDlq(), { id: first }))).toEqual({ queue: ledgerDlq(), purged: 1 });
    const rest = (await run((ctx) => showDeadLetters(ctx, ledgerDlq(), 10))) as { messages: Array<{ message_id: string }> };
    expect(rest.messages.map((m) => m.message_id)).toEqual([second]);
    expect(await run((ctx) => purgeDeadLetters(ctx, ledgerDlq(), {}))).toEqual({ queue: ledgerDlq(), purged: 1 });
  });

  it("replays messages back to the work queue they died in", async () => {
    await deadLetter();
    await deadLetter();
    expect(await run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: 1 }))).toEqual({ queue: ledgerDlq(), replayed: 1 });
    expect(await run((ctx) => replayDeadLetters(ctx, ledgerDlq(), { limit: Number.POSITIVE_INFINITY }))).toEqual({ queue: ledgerDlq(), replayed: 1 });
    expect((await channel.checkQueue(ledger())).messageCount).toBe(2);
    expect((await channel.checkQueue(ledgerDlq())).messageCount).toBe(0);
  });

  it("refuses a queue that is not a dead-letter queue", async () => {
    await expect(run((ctx) => purgeDeadLetters(ctx, ledger(), {}))).rejects.toThrow(/is not a dead-letter queue/);
  });
});
