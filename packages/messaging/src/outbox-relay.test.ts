import { spawn } from "node:child_process";
import path from "node:path";
import { createDb, enqueueOutbox, pgOutboxRound, repoRoot, type Db } from "@sweep/db";
import { Pool } from "pg";
import { Consumer } from "./consumer";
import type { BrokerConnection } from "./connection";
import type { MessagePayload } from "./messages";
import { OutboxRelay } from "./outbox-relay";
import { Publisher, outboxDraft } from "./publisher";
import { defineTopology, type Topology, type TopologyOptions } from "./topology";
import { connect, deleteTopology, logger, testTopologyOptions, uuid, waitFor } from "../test/support";

// Every service's relay goes through Prisma; the api-gateway's through pg (pgOutboxRound): both keep the same promises.
describe.each(["prisma", "pg"] as const)("outbox relay, its rounds through %s", (roundsThrough) => {
  let options: TopologyOptions;
  let topology: Topology;
  let db: Db;
  let connection: BrokerConnection;
  let publisher: Publisher;
  let consumer: Consumer;
  let received: { messageId: string; sweepId: string }[];
  const relays: OutboxRelay[] = [];

  let pool: Pool;
  beforeAll(() => {
    db = createDb(process.env.DATABASE_URL!);
    pool = new Pool({ connectionString: process.env.DATABASE_URL!, max: 4 });
  });
  afterAll(() => Promise.all([db.$disconnect(), pool.end()]));

  beforeEach(async () => {
    options = testTopologyOptions();
    topology = defineTopology(options);
    connection = await connect();
    publisher = await Publisher.open(connection, topology, { logger });
    received = [];
    consumer = await Consumer.start(connection, topology, {
      queue: topology.names.batcher(97),
      handlers: { "sweep.queued": async ({ sweepId }, { messageId }) => void received.push({ messageId, sweepId }) },
      logger,
    });
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await consumer.stop();
    await connection.close();
    await deleteTopology(topology);
  });

  function relay(overrides: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}): OutboxRelay {
    const round = roundsThrough === "pg" ? pgOutboxRound(pool, 30_000) : undefined;
    const created = new OutboxRelay({ db, publisher, exchange: topology.names.workExchange, logger, pollIntervalMs: 50, round, ...overrides });
    relays.push(created);
    return created;
  }

  /** Commits a sweep.queued outbox row, as the api-gateway does together with the sweep. */
  async function commitMessage(): Promise<{ messageId: string; payload: MessagePayload<"sweep.queued"> }> {
    const payload = { sweepId: uuid(), chainId: 97, hotWalletId: uuid() };
    const row = await db.$transaction((tx) => enqueueOutbox(tx, outboxDraft("sweep.queued", payload, topology.names)));
    return { messageId: row.messageId, payload };
  }

  /** Runs a relay in a child process until it reports `mode`, then SIGKILLs it. */
  async function crashRelay(mode: "before-publish" | "after-publish", whileClaimed?: () => Promise<void>): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "../test/relay-child.ts"), mode, JSON.stringify(options)], {
      cwd: repoRoot,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`relay child exited early (${code})`)));
    });
    await whileClaimed?.();
    child.kill("SIGKILL");
    await exited;
  }

  const publishedAt = async (messageId: string) => (await db.outboxMessage.findUniqueOrThrow({ where: { messageId } })).publishedAt;

  it("publishes a committed row and marks it published", async () => {
    const { messageId, payload } = await commitMessage();
    relay().start();

    await waitFor(() => received.length === 1, "the delivery");
    expect(received).toEqual([{ messageId, sweepId: payload.sweepId }]);
    await waitFor(async () => (await publishedAt(messageId)) !== null || undefined, "the row marked published");
  });

  it("with a wake delay, a wake starts one round after the delay, which publishes what was committed meanwhile", async () => {
    const delayed = relay({ pollIntervalMs: 60_000, wakeDelayMs: 1_500 });
    const rounds = jest.spyOn(delayed, "relayOnce");
    delayed.start();
    await waitFor(() => rounds.mock.results.length === 1 || undefined, "the first round");
    await rounds.mock.results[0]!.value;

    // Woken before the rows are committed: a round at once would find none, and the poll is a minute away.
    delayed.wake();
    const committed = await Promise.all([commitMessage(), commitMessage(), commitMessage()]);
    delayed.wake();
    await waitFor(() => received.length === 3, "the deliveries");
    expect(received.map((r) => r.messageId).sort()).toEqual(committed.map((c) => c.messageId).sort());
    expect(rounds).toHaveBeenCalledTimes(2);
  });

  it("loses nothing when a relay dies between commit and publish", async () => {
    const { messageId } = await commitMessage();

    await crashRelay("before-publish", async () => {
      // While the dying relay holds the row, another relay skips it instead of publishing it too.
      expect(await relay().relayOnce()).toBe(0);
    });
    expect(await publishedAt(messageId)).toBeNull();
    expect(received).toEqual([]);

    relay().start();
    await waitFor(() => received.length === 1, "the delivery by a new relay");
    expect(received[0]!.messageId).toBe(messageId);
  });

  it("publishes again when a relay dies between publish and mark (at least once, same message id)", async () => {
    const { messageId } = await commitMessage();

    await crashRelay("after-publish");
    await waitFor(() => received.length === 1, "the delivery by the dead relay");
    expect(await publishedAt(messageId)).toBeNull();

    relay().start();
    await waitFor(() => received.length === 2, "the second delivery");
    expect(received.map((r) => r.messageId)).toEqual([messageId, messageId]);
    await waitFor(async () => (await publishedAt(messageId)) !== null || undefined, "the row marked published");
  });

  it("with several relays at once, publishes every row exactly once when none crashes", async () => {
    const committed = [];
    for (let i = 0; i < 40; i++) committed.push(await commitMessage());
    for (let i = 0; i < 3; i++) relay({ batchSize: 5 }).start();

    await waitFor(() => received.length >= committed.length, "every delivery");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.map((r) => r.messageId).sort()).toEqual(committed.map((c) => c.messageId).sort());
  });

  it("publishes at once when woken instead of waiting for the next poll", async () => {
    const idle = relay({ pollIntervalMs: 60_000 });
    idle.start();
    await new Promise((resolve) => setTimeout(resolve, 100)); // its first round found nothing
    const { messageId } = await commitMessage();

    idle.wake();
    await waitFor(() => received.length === 1, "the delivery after wake", 2_000);
    expect(received[0]!.messageId).toBe(messageId);
  });
});
