/**
 * The batcher as it runs (services/batcher/src/main.ts in its own process) against a database of
 * its own, a real RabbitMQ (unique prefix) and anvil: sweeps and revocations announced through the
 * outbox as the API writes them, redelivered messages, a batch in flight, the wake after it
 * settles, the poll, and a clean stop.
 */
import { randomUUID } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { createDb, type Db } from "@sweep/db";
import { defineTopology, outboxDraft, type Topology } from "@sweep/messaging";
import { createTestDatabase, startService, startTestChain, type ServiceProcess, type TestChain } from "@sweep/testkit";
import { Wallet } from "ethers";
import { activeHotWallet, delegateOnChain, deleteTopology, insertRevocation, insertSweep, revocationAuthorization, storedAuthorization, uniquePrefix, type HotWalletFixture } from "./support";

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("batcher service", () => {
  let chain: TestChain;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let topology: Topology;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;
  let hotWallet: HotWalletFixture;

  beforeAll(async () => {
    chain = await startTestChain(97);
    database = await createTestDatabase();
    db = createDb(database.url);
    const prefix = uniquePrefix();
    topology = defineTopology({ chainIds: environmentChainIds("testnet"), prefix });
    env = {
      SERVICE_ENV: "testnet",
      CHAINS: "97",
      DATABASE_URL: database.url,
      AMQP_PREFIX: prefix,
      // A long poll interval: in these tests the messages alone must move the work.
      POLL_INTERVAL_MS: "3600000",
      // This test's 50 inserts take over a second to commit on a busy 2-core machine, and its
      // outbox relay (the batcher's own, never woken by the inserts) publishes every 250 ms: a
      // window that outlasts both still gathers them all, as the defaults do for the API's pace.
      BATCH_WINDOW_MS: "400",
      BATCH_WINDOW_MAX_MS: "3000",
      ...chain.env,
    };
    hotWallet = await activeHotWallet(db, chain);
    service = await startService("batcher", env);
  });

  afterAll(async () => {
    await service?.kill();
    await db.$disconnect();
    await database.drop();
    await chain.stop();
    await deleteTopology(topology);
  });

  const batches = () => db.batch.findMany({ where: { hotWalletId: hotWallet.hotWalletId }, include: { items: { orderBy: { position: "asc" } } }, orderBy: { createdAt: "asc" } });
  const revocationBatches = async () => {
    const gasWallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: hotWallet.partnerId } });
    return db.batch.findMany({ where: { gasWalletId: gasWallet.id, purpose: "revocation" }, include: { items: { orderBy: { position: "asc" } } }, orderBy: { createdAt: "asc" } });
  };
  const deposit = async () => {
    const wallet = Wallet.createRandom();
    await chain.mintUsdt(wallet.address, 10n);
    return { account: wallet.address, authorization: storedAuthorization(wallet, hotWallet.delegate, 0, 97) };
  };
  /** What the ledger does when a batch settles. */
  const settle = async (batchId: string, wake: boolean) => {
    await db.$transaction(async (tx) => {
      await tx.batch.update({ where: { id: batchId }, data: { status: "confirmed" } });
      await tx.sweep.updateMany({ where: { batchId }, data: { status: "swept" } });
      if (wake) await tx.outboxMessage.create({ data: outboxDraft("hot_wallet.wake", { hotWalletId: hotWallet.hotWalletId, chainId: 97 }, topology.names) });
    });
  };

  it("ends 50 sweeps posted at once in one batch of 50, in arrival order", async () => {
    const sweeps = [];
    for (let i = 0; i < 50; i++) sweeps.push(await deposit());
    const ids = await Promise.all(sweeps.map((s) => insertSweep(db, chain, hotWallet, s, topology.names)));

    const [batch] = await eventually("a batch", async () => ((await batches()).length > 0 ? batches() : undefined));
    const inOrder = (await db.sweep.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" }, select: { id: true } })).map((s) => s.id);
    expect(batch!.items.map((i) => i.sweepId)).toEqual(inOrder);
    expect(batch!.status).toBe("open");
    expect(await db.sweep.count({ where: { id: { in: ids }, status: "processing", attempts: 1, batchId: batch!.id } })).toBe(50);
    await eventually("batch.ready published", async () => (await db.outboxMessage.count({ where: { type: "batch.ready", publishedAt: { not: null } } })) === 1 || undefined);
  });

  it("changes nothing when the same messages are delivered again", async () => {
    const sweeps = await db.sweep.findMany({ select: { id: true, hotWalletId: true } });
    await db.outboxMessage.createMany({ data: sweeps.map((s) => outboxDraft("sweep.queued", { sweepId: s.id, chainId: 97, hotWalletId: s.hotWalletId }, topology.names)) });
    await eventually("the messages published", async () => (await db.outboxMessage.count({ where: { publishedAt: null } })) === 0 || undefined);
    await pause(1_500);
    expect(await batches()).toHaveLength(1);
    expect(await db.sweep.count({ where: { status: "processing", attempts: 1 } })).toBe(50);
    expect(service!.output()).not.toContain("handler failed");
  });

  it("keeps a sweep that arrives while the batch is being prepared for the next batch, taken on the wake after it settles", async () => {
    const [inFlight] = await batches();
    const later = await insertSweep(db, chain, hotWallet, await deposit(), topology.names);
    await eventually("its message handled", async () => (service!.output().includes(`"sweepId":"${later}"`) ? true : undefined));
    await pause(1_000);
    expect(await batches()).toHaveLength(1);
    expect(await db.sweep.findUniqueOrThrow({ where: { id: later } })).toMatchObject({ status: "queued", attempts: 0 });

    await settle(inFlight!.id, true);
    const next = await eventually("the next batch", async () => (await batches())[1]);
    expect(next.items.map((i) => i.sweepId)).toEqual([later]);
    await settle(next.id, false);
  });

  it("ends revocations announced by revocation.queued in one revocation batch of the partner's gas wallet", async () => {
    const deposits = [Wallet.createRandom(), Wallet.createRandom()];
    for (const d of deposits) await delegateOnChain(chain, d, hotWallet.delegate);
    const ids = await Promise.all(deposits.map((d) => insertRevocation(db, chain, hotWallet.partnerId, { account: d.address, authorization: revocationAuthorization(d, 1, 97) }, topology.names)));

    const batch = await eventually("a revocation batch", async () => (await revocationBatches())[0]);
    const inOrder = (await db.revocation.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" }, select: { id: true } })).map((r) => r.id);
    expect(batch).toMatchObject({ purpose: "revocation", status: "open", chainId: 97, hotWalletId: null });
    expect(batch.items.map((i) => [i.revocationId, i.withAuthorization])).toEqual(inOrder.map((id) => [id, true]));
    expect(await db.revocation.count({ where: { id: { in: ids }, status: "processing", attempts: 1, batchId: batch.id } })).toBe(2);
    await eventually("its batch.ready published", async () =>
      (await db.outboxMessage.count({ where: { type: "batch.ready", payload: { path: ["batchId"], equals: batch.id }, publishedAt: { not: null } } })) === 1 || undefined,
    );
  });

  it("acknowledges a revocation.queued whose revocation does not exist", async () => {
    const unknown = randomUUID();
    await db.outboxMessage.create({ data: outboxDraft("revocation.queued", { revocationId: unknown, chainId: 97 }, topology.names) });
    await eventually("its message handled", async () => (service!.output().includes(`"revocationId":"${unknown}"`) ? true : undefined));
    expect(service!.output()).not.toContain("handler failed");
  });

  it("finds, by its poll, a due sweep whose message was lost", async () => {
    expect(await service!.stop()).toBe(0);
    service = await startService("batcher", { ...env, POLL_INTERVAL_MS: "200" });
    const lost = await insertSweep(db, chain, hotWallet, await deposit());
    const batch = await eventually("a batch by the poll", async () => (await batches()).find((b) => b.items.some((i) => i.sweepId === lost)));
    expect(batch.items).toHaveLength(1);
  });

  it("finds, by its poll resting with nothing due, a sweep once its retry pause is over", async () => {
    // The batch before it settled without its wake: the poll alone moves the work from here.
    for (const batch of await batches()) if (batch.status === "open") await settle(batch.id, false);
    await pause(2_000);
    const paused = await insertSweep(db, chain, hotWallet, { ...(await deposit()), nextAttemptAt: new Date(Date.now() + 1_500) });
    const batch = await eventually("a batch by the poll once the pause ended", async () => (await batches()).find((b) => b.items.some((i) => i.sweepId === paused)));
    expect(batch.items).toHaveLength(1);
  });

  it("finds, by its poll, a due revocation whose message was lost, once the revocation batch before it was sent", async () => {
    const [prepared] = await revocationBatches();
    const deposit = Wallet.createRandom();
    await delegateOnChain(chain, deposit, hotWallet.delegate);
    const lost = await insertRevocation(db, chain, hotWallet.partnerId, { account: deposit.address, authorization: revocationAuthorization(deposit, 1, 97) });
    await pause(1_000);
    expect(await db.revocation.findUniqueOrThrow({ where: { id: lost } })).toMatchObject({ status: "queued" });

    await db.batch.update({ where: { id: prepared!.id }, data: { status: "sent" } });
    const batch = await eventually("a revocation batch by the poll", async () => (await revocationBatches()).find((b) => b.items.some((i) => i.revocationId === lost)));
    expect(batch.items).toHaveLength(1);
  });

  it("stops cleanly on SIGTERM", async () => {
    expect(await service!.stop()).toBe(0);
    expect(service!.output()).toContain('"message":"stopped"');
    service = undefined;
  });
});
