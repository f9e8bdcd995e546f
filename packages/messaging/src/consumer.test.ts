import type { Logger } from "@sweep/common";
import { Consumer, type DeliveryContext } from "./consumer";
import type { BrokerConnection } from "./connection";
import { openDeadLetters, type DeadLetters } from "./dead-letters";
import { Publisher } from "./publisher";
import { retryAfter } from "./retry-delay";
import type { Topology } from "./topology";
import { RABBITMQ_URL, connect, deferred, deleteTopology, logger, messageCount, sendRaw, testTopology, uuid, waitFor } from "../test/support";

describe("consumer", () => {
  let topology: Topology;
  let connection: BrokerConnection;
  let publisher: Publisher;
  let deadLetters: DeadLetters;
  let consumers: Consumer[];
  const noPause = { base: 0, max: 0 };

  beforeEach(async () => {
    topology = testTopology();
    connection = await connect();
    publisher = await Publisher.open(connection, topology, { logger });
    deadLetters = await openDeadLetters(RABBITMQ_URL, topology);
    consumers = [];
  });

  afterEach(async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    await deadLetters.close();
    await connection.close();
    await deleteTopology(topology);
  });

  const batcher = () => topology.names.batcher(97);
  const sweep = () => ({ sweepId: uuid(), chainId: 97, hotWalletId: uuid() });

  async function consume(handlers: Parameters<typeof Consumer.start>[2]["handlers"], queue = batcher()) {
    const consumer = await Consumer.start(connection, topology, { queue, handlers, logger, requeueDelayMs: noPause });
    consumers.push(consumer);
    return consumer;
  }

  it("hands a valid message to its handler with its id, then acks it", async () => {
    const seen: { payload: unknown; context: DeliveryContext }[] = [];
    const consumer = await consume({ "sweep.queued": async (payload, context) => void seen.push({ payload, context }) });
    const payload = sweep();
    const messageId = await publisher.publish("sweep.queued", payload);

    await waitFor(() => seen.length === 1, "the delivery");
    expect(seen[0]!.payload).toEqual(payload);
    expect(seen[0]!.context).toMatchObject({ messageId, type: "sweep.queued", deliveries: 1, retries: 0 });
    await consumer.stop();
    expect(await messageCount(batcher())).toBe(0);
  });

  it("dead-letters a message whose handler keeps failing after deliveryLimit + 1 deliveries", async () => {
    const deliveries: number[] = [];
    await consume({
      "sweep.queued": async (_payload, { deliveries: n }) => {
        deliveries.push(n);
        throw new Error("poison");
      },
    });
    const messageId = await publisher.publish("sweep.queued", sweep());

    const [dead] = await waitFor(async () => {
      const shown = await deadLetters.showDeadLetters(topology.names.deadLetter(batcher()), 10);
      return shown.length > 0 ? shown : undefined;
    }, "the dead letter");
    expect(deliveries).toEqual([1, 2, 3]);
    expect(dead).toMatchObject({ messageId, type: "sweep.queued", reason: "delivery_limit", originalQueue: batcher(), deliveries: 3 });
  });

  it("dead-letters an invalid message at once, without calling the handler", async () => {
    const handler = jest.fn(async () => undefined);
    await consume({ "sweep.queued": handler });
    await sendRaw(batcher(), JSON.stringify({ sweepId: "not-a-uuid", chainId: 97 }), { messageId: uuid(), type: "sweep.queued" });
    await sendRaw(batcher(), "{not json", { messageId: uuid(), type: "sweep.queued" });
    await sendRaw(batcher(), JSON.stringify({ batchId: uuid(), chainId: 97 }), { messageId: uuid(), type: "batch.ready" });

    const dlq = topology.names.deadLetter(batcher());
    await waitFor(async () => (await messageCount(dlq)) === 3 || undefined, "three dead letters");
    const shown = await deadLetters.showDeadLetters(dlq, 10);
    expect(shown.map((d) => d.reason)).toEqual(["rejected", "rejected", "rejected"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("names the message, its deliveries and its payload's ids on the lines about its failures, valid or not", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const consumer = await Consumer.start(connection, topology, {
      queue: batcher(),
      handlers: {
        "sweep.queued": async () => {
          throw new Error("poison");
        },
      },
      logger: recordingLogger(lines),
      requeueDelayMs: noPause,
    });
    consumers.push(consumer);
    const payload = sweep();
    const messageId = await publisher.publish("sweep.queued", payload);
    const invalidId = uuid();
    await sendRaw(batcher(), JSON.stringify({ sweepId: "not-a-uuid", chainId: 97 }), { messageId: invalidId, type: "sweep.queued" });

    await waitFor(async () => (await messageCount(topology.names.deadLetter(batcher()))) === 2 || undefined, "two dead letters");
    const about = (id: string) => lines.filter((line) => line.messageId === id).map(({ message, deliveries, sweepId, hotWalletId, chainId }) => ({ message, deliveries, sweepId, hotWalletId, chainId }));
    const ids = { sweepId: payload.sweepId, hotWalletId: payload.hotWalletId, chainId: 97 };
    expect(about(messageId)).toEqual([
      { message: "handler failed; requeued", deliveries: 1, ...ids },
      { message: "handler failed; requeued", deliveries: 2, ...ids },
      { message: "handler failed at the delivery limit; dead-lettered", deliveries: 3, ...ids },
    ]);
    expect(about(invalidId)).toEqual([{ message: "invalid message dead-lettered without retry", deliveries: 1, sweepId: "not-a-uuid", hotWalletId: undefined, chainId: 97 }]);
    expect(lines.filter((line) => line.messageId !== undefined).every((line) => line.queue === batcher() && line.type === "sweep.queued")).toBe(true);
  });

  it("returns a message after its delay when the handler asks for a retry", async () => {
    const seen: { at: number; retries: number }[] = [];
    await consume({
      "sweep.queued": async (_payload, { retries }) => {
        seen.push({ at: Date.now(), retries });
        if (retries === 0) return retryAfter(250);
      },
    });
    await publisher.publish("sweep.queued", sweep());

    await waitFor(() => seen.length === 2, "the retried delivery");
    expect(seen.map((s) => s.retries)).toEqual([0, 1]);
    // 250 ms rounds up to the 300 ms tier.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(290);
    expect(await messageCount(topology.names.delay(batcher(), 300))).toBe(0);
  });

  it("keeps consuming across a reconnect; a message in flight then is delivered again", async () => {
    const release = deferred();
    const seen: string[] = [];
    await consume({
      "sweep.queued": async (payload, { deliveries }) => {
        seen.push(`${payload.sweepId}#${deliveries}`);
        if (seen.length === 1) await release.promise;
      },
    });
    const first = sweep();
    await publisher.publish("sweep.queued", first);
    await waitFor(() => seen.length === 1, "the first delivery");

    connection.reconnect();
    await waitFor(() => seen.length === 2, "the redelivery after the reconnect");
    release.resolve(); // its ack belongs to the closed channel and must not break the new one
    const second = sweep();
    await publisher.publish("sweep.queued", second);

    await waitFor(() => seen.length === 3, "a message published after the reconnect");
    expect(seen).toEqual([`${first.sweepId}#1`, `${first.sweepId}#2`, `${second.sweepId}#1`]);
  });

  it("stop() waits for the handlers under way and settles their messages", async () => {
    const started = deferred();
    let finished = false;
    const consumer = await consume({
      "sweep.queued": async () => {
        started.resolve();
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished = true;
      },
    });
    await publisher.publish("sweep.queued", sweep());
    await started.promise;

    await consumer.stop();
    expect(finished).toBe(true);
    expect(await messageCount(batcher())).toBe(0);
  });

  it("refuses a queue that is not a work queue of the topology", async () => {
    await expect(Consumer.start(connection, topology, { queue: "elsewhere", handlers: {}, logger })).rejects.toThrow("not a work queue");
  });
});

/** A logger that keeps each line as an object of its message and fields, a child's included. */
function recordingLogger(lines: Array<Record<string, unknown>>, fields: Record<string, unknown> = {}): Logger {
  const line = (level: string) => (message: string, more?: Record<string, unknown>) => void lines.push({ level, message, ...fields, ...more });
  return { child: (more: Record<string, unknown>) => recordingLogger(lines, { ...fields, ...more }), error: line("error"), warn: line("warn"), info: line("info"), debug: line("debug") } as unknown as Logger;
}
