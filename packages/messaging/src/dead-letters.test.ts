import { Consumer } from "./consumer";
import type { BrokerConnection } from "./connection";
import { deliveriesBeforeDeath, openDeadLetters, type DeadLetters } from "./dead-letters";
import { Publisher } from "./publisher";
import type { Topology } from "./topology";
import { RABBITMQ_URL, connect, deleteTopology, logger, messageCount, queueExists, sendRaw, testTopology, uuid, waitFor } from "../test/support";

describe("deliveries before a message died", () => {
  it.each([
    ["delivery_limit", 5, 6],
    ["delivery_limit", 2, 3],
    ["rejected", 5, 1],
    ["unrouted", 5, 0],
    ["unknown", 5, undefined],
  ])("%s with a delivery limit of %i: %p", (reason, limit, deliveries) => {
    expect(deliveriesBeforeDeath(reason, limit)).toBe(deliveries);
  });
});

describe("dead letters", () => {
  let topology: Topology;
  let connection: BrokerConnection;
  let publisher: Publisher;
  let deadLetters: DeadLetters;
  let consumer: Consumer | undefined;

  beforeEach(async () => {
    topology = testTopology();
    connection = await connect();
    publisher = await Publisher.open(connection, topology, { logger });
    deadLetters = await openDeadLetters(RABBITMQ_URL, topology);
  });

  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
    await deadLetters.close();
    await connection.close();
    await deleteTopology(topology);
  });

  const ledger = () => topology.names.ledger();
  const dlq = () => topology.names.deadLetter(ledger());

  /** Dead-letters `count` tx.outcome messages through a ledger whose handler fails, and returns their ids in order. */
  async function deadLetter(count: number): Promise<string[]> {
    const failing = await Consumer.start(connection, topology, {
      queue: ledger(),
      handlers: { "tx.outcome": async () => Promise.reject(new Error("ledger down")) },
      logger,
      prefetch: 1,
      requeueDelayMs: { base: 0, max: 0 },
    });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await publisher.publish("tx.outcome", { chainId: 97, transactionId: uuid() }));
    await waitFor(async () => (await messageCount(dlq())) === count || undefined, `${count} dead letters`);
    await failing.stop();
    return ids;
  }

  it("lists, shows without consuming, and keeps the order", async () => {
    const ids = await deadLetter(3);

    const listed = await deadLetters.listDeadLetters();
    expect(listed.map((q) => q.queue).sort()).toEqual(deadLetters.queues().sort());
    expect(listed.find((q) => q.queue === dlq())).toMatchObject({ messages: 3, oldestAgeSeconds: expect.any(Number) });
    expect(listed.find((q) => q.queue === topology.names.deadLetter(topology.names.sender(97)))).toEqual({ queue: topology.names.deadLetter(topology.names.sender(97)), messages: 0 });

    const first = await deadLetters.showDeadLetters(dlq(), 2);
    expect(first.map((d) => d.messageId)).toEqual(ids.slice(0, 2));
    expect(first[0]).toMatchObject({ type: "tx.outcome", reason: "delivery_limit", originalQueue: ledger(), deliveries: 3 });
    expect(JSON.parse(first[0]!.payload)).toMatchObject({ chainId: 97 });
    const again = await deadLetters.showDeadLetters(dlq(), 10);
    expect(again.map((d) => d.messageId)).toEqual(ids);
    expect(await messageCount(dlq())).toBe(3);
  });

  it("replays a message back to its work queue, where it is processed like a new one", async () => {
    const [id] = await deadLetter(1);
    const processed: { messageId: string; deliveries: number; retries: number }[] = [];
    consumer = await Consumer.start(connection, topology, {
      queue: ledger(),
      handlers: { "tx.outcome": async (_payload, { messageId, deliveries, retries }) => void processed.push({ messageId, deliveries, retries }) },
      logger,
    });

    expect(await deadLetters.replayDeadLetters(dlq(), { limit: 10 })).toEqual([{ messageId: id, type: "tx.outcome", queue: ledger() }]);
    await waitFor(() => processed.length === 1, "the replayed message");
    expect(processed).toEqual([{ messageId: id, deliveries: 1, retries: 0 }]);
    expect(await messageCount(dlq())).toBe(0);
  });

  it("replays or purges one message by id and leaves the others in order", async () => {
    const ids = await deadLetter(4);

    expect(await deadLetters.replayDeadLetters(dlq(), { limit: 10, id: ids[1] })).toEqual([{ messageId: ids[1], type: "tx.outcome", queue: ledger() }]);
    expect(await messageCount(ledger())).toBe(1);
    expect(await deadLetters.purgeDeadLetters(dlq(), { id: ids[2] })).toBe(1);
    expect((await deadLetters.showDeadLetters(dlq(), 10)).map((d) => d.messageId)).toEqual([ids[0], ids[3]]);

    expect(await deadLetters.replayDeadLetters(dlq(), { limit: 1 })).toHaveLength(1);
    expect((await deadLetters.showDeadLetters(dlq(), 10)).map((d) => d.messageId)).toEqual([ids[3]]);
    expect(await deadLetters.countDeadLetters(dlq())).toBe(1);
    expect(await deadLetters.purgeDeadLetters(dlq())).toBe(1);
    expect(await messageCount(dlq())).toBe(0);
  });

  it("keeps a message no queue was bound for in the unrouted queue, and replays it once one is", async () => {
    const unrouted = topology.names.unrouted();
    const messageId = uuid();
    // Chain 56 is not part of this topology: no batcher queue is bound for it yet.
    await publisher.publishEnvelope(topology.names.workExchange, topology.names.batcher(56), {
      messageId,
      type: "sweep.queued",
      timestamp: new Date(),
      payload: { sweepId: uuid(), chainId: 56, hotWalletId: uuid() },
    });
    await waitFor(async () => (await messageCount(unrouted)) === 1 || undefined, "the unrouted message");
    expect(await deadLetters.showDeadLetters(unrouted, 10)).toEqual([expect.objectContaining({ messageId, reason: "unrouted", originalQueue: topology.names.batcher(56) })]);

    const wider = testTopology({ prefix: topology.names.prefix, chainIds: [97, 56] });
    const widerPublisher = await Publisher.open(connection, wider, { logger });
    await widerPublisher.close();
    expect(await deadLetters.replayDeadLetters(unrouted, { limit: 10 })).toEqual([{ messageId, type: "sweep.queued", queue: wider.names.batcher(56) }]);
    expect(await messageCount(wider.names.batcher(56))).toBe(1);
    await deleteTopology(wider);
  });

  it("shows a message the consumer refused as invalid: rejected after one delivery", async () => {
    consumer = await Consumer.start(connection, topology, { queue: ledger(), handlers: { "tx.outcome": async () => undefined }, logger });
    const messageId = uuid();
    await sendRaw(ledger(), JSON.stringify({ chainId: 97, transactionId: "not-a-uuid" }), { messageId, type: "tx.outcome" });
    await waitFor(async () => (await messageCount(dlq())) === 1 || undefined, "the rejected message");
    expect(await deadLetters.showDeadLetters(dlq(), 10)).toEqual([expect.objectContaining({ messageId, reason: "rejected", deliveries: 1, originalQueue: ledger() })]);
  });

  it("has settled what it replayed and purged once closed", async () => {
    await deadLetter(3);
    const own = await openDeadLetters(RABBITMQ_URL, topology);
    const [first] = await own.showDeadLetters(dlq(), 1);
    expect(await own.purgeDeadLetters(dlq(), { id: first!.messageId })).toBe(1);
    expect(await own.replayDeadLetters(dlq(), { limit: Number.POSITIVE_INFINITY })).toHaveLength(2);
    await own.close();
    // A lost acknowledgement would bring a message back to the DLQ when the connection closed.
    for (let i = 0; i < 10; i++) {
      expect(await messageCount(dlq())).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await messageCount(ledger())).toBe(2);
  });

  it("replays a message that dies again at once only once per run", async () => {
    consumer = await Consumer.start(connection, topology, { queue: ledger(), handlers: { "tx.outcome": async () => undefined }, logger });
    const messageId = uuid();
    await sendRaw(ledger(), "{not json", { messageId, type: "tx.outcome" });
    await waitFor(async () => (await messageCount(dlq())) === 1 || undefined, "the rejected message");

    expect(await deadLetters.replayDeadLetters(dlq(), { limit: Number.POSITIVE_INFINITY })).toEqual([{ messageId, type: "tx.outcome", queue: ledger() }]);
    await waitFor(async () => (await messageCount(dlq())) === 1 || undefined, "the message dead again");
  });

  it("accepts only the topology's dead-letter queues, and points from a work queue to its own", async () => {
    await expect(deadLetters.purgeDeadLetters("elsewhere")).rejects.toThrow(/^elsewhere is not a dead-letter queue; the dead-letter queues are /);
    await expect(deadLetters.showDeadLetters(ledger(), 1)).rejects.toThrow(`${ledger()} is a work queue; its dead letters are in ${dlq()}`);
  });

  it("refuses to open on a topology the broker does not have, rather than declare an empty one", async () => {
    const elsewhere = testTopology();
    await expect(openDeadLetters(RABBITMQ_URL, elsewhere)).rejects.toThrow(
      `exchange ${elsewhere.names.workExchange} does not exist on the broker; the services declare it when they start: check RABBITMQ_URL, AMQP_PREFIX`,
    );
    expect(await queueExists(elsewhere.names.deadLetter(elsewhere.names.ledger()))).toBe(false);
  });
});
