import { randomBytes, randomUUID } from "node:crypto";
import { createDb, type Db, type WorkStatus } from "@sweep/db";
import { queueNames } from "@sweep/messaging";
import { PendingMetrics, batchSize, revocationsFinal, sweepsFinal } from "@sweep/metrics";
import { createTestPartner } from "@sweep/testkit";
import { getAddress, hexlify } from "ethers";
import { claimIntoBatch, rejectWork, returnToQueue, settleWork, takeBackIntoBatch, type WorkSettlement } from "./work-transitions";

const chainId = 97;
const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const authorization = { chain_id: chainId, address: randomAddress(), nonce: 0, y_parity: 0, r: "0x01", s: "0x01" };

/** A partner's work as the other services leave it, on the real database, and what the transitions wrote about it. */
describe("the changes of a sweep's and a revocation's state", () => {
  // A prefix of its own, so no relay of another test publishes these outbox rows.
  const names = queueNames(`work-transitions-${randomUUID().slice(0, 8)}`);
  let db: Db;
  let partnerId: string;
  let gasWalletId: string;
  let hotWalletId: string;
  let otherHotWalletId: string;

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    ({ partnerId } = await createTestPartner(db, "work transitions partner"));
    ({ id: gasWalletId } = await db.gasWallet.findUniqueOrThrow({ where: { partnerId } }));
    const hotWallet = () => db.hotWallet.create({ data: { partnerId, chainId, address: randomAddress(), delegate: randomAddress(), status: "active" } });
    ({ id: hotWalletId } = await hotWallet());
    ({ id: otherHotWalletId } = await hotWallet());
  });
  afterAll(() => db.$disconnect());
  beforeEach(() => {
    sweepsFinal.reset();
    revocationsFinal.reset();
    batchSize.reset();
  });

  const newBatch = async (purpose: "sweep" | "revocation") =>
    (await db.batch.create({ data: { chainId, gasWalletId, hotWalletId: purpose === "sweep" ? hotWalletId : null, purpose, status: "open" }, select: { id: true } })).id;
  const sweep = (status: WorkStatus, extra: { account?: string; batchId?: string; hotWalletId?: string; txHash?: string; fee?: string } = {}) =>
    db.sweep.create({ data: { partnerId, chainId, hotWalletId, account: randomAddress(), token: "USDT", tokenAddress: randomAddress(), status, attempts: status === "processing" ? 1 : 0, ...extra } });
  const revocation = (status: WorkStatus, extra: { account?: string; batchId?: string } = {}) =>
    db.revocation.create({ data: { partnerId, chainId, account: randomAddress(), authorization, status, attempts: status === "processing" ? 1 : 0, ...extra } });
  /** Runs a change in a transaction of its own, and applies its metrics once it committed. */
  const change = async <T>(apply: (tx: Parameters<Parameters<Db["$transaction"]>[0]>[0], metrics: PendingMetrics) => Promise<T>): Promise<T> => {
    const metrics = new PendingMetrics();
    const result = await db.$transaction((tx) => apply(tx, metrics));
    metrics.commit();
    return result;
  };
  const outbox = async () => (await db.outboxMessage.findMany({ where: { exchange: names.workExchange }, orderBy: { id: "asc" } })).map((m) => [m.type, m.payload]);
  /** The events of these subjects, in the subjects' order (events of one transaction share their created_at). */
  const eventsOf = async (subjectIds: string[]) => {
    const events = await db.event.findMany({ where: { subjectId: { in: subjectIds } } });
    return subjectIds.flatMap((id) => events.filter((e) => e.subjectId === id).map((e) => [e.type, e.subjectId]));
  };
  const counted = async (counter: typeof sweepsFinal) => (await counter.get()).values.map((v) => [v.labels.status, v.labels.reason, v.value]);
  afterEach(() => db.outboxMessage.deleteMany({ where: { exchange: names.workExchange } }));

  describe("claimed into a batch (queued → processing)", () => {
    it("takes the queued items into the batch, counts the attempt, and announces the batch", async () => {
      const batchId = await newBatch("sweep");
      const [a, b] = [await sweep("queued"), await sweep("queued", { hotWalletId: otherHotWalletId })];
      await change((tx, metrics) => claimIntoBatch(tx, names, metrics, "sweep", { chainId, batchId, ids: [a.id, b.id] }));

      const rows = await db.sweep.findMany({ where: { id: { in: [a.id, b.id] } } });
      expect(rows.map((r) => [r.status, r.batchId, r.attempts, r.reason])).toEqual([
        ["processing", batchId, 1, null],
        ["processing", batchId, 1, null],
      ]);
      expect(await outbox()).toEqual([["batch.ready", { batchId, chainId }]]);
      expect((await batchSize.get()).values.find((v) => v.metricName === "sweep_batch_size_sum")).toMatchObject({ labels: { chain_id: chainId, purpose: "sweep" }, value: 2 });
    });

    it("refuses an item that is no longer queued: the claim's locks make that a bug, and nothing is written", async () => {
      const batchId = await newBatch("revocation");
      const [queued, rejected] = [await revocation("queued"), await revocation("rejected")];
      await expect(change((tx, metrics) => claimIntoBatch(tx, names, metrics, "revocation", { chainId, batchId, ids: [queued.id, rejected.id] }))).rejects.toThrow("claimed 1 of 2 revocations");
      expect((await db.revocation.findUniqueOrThrow({ where: { id: queued.id } })).status).toBe("queued");
      expect(await outbox()).toEqual([]);
      expect((await batchSize.get()).values.find((v) => v.metricName === "sweep_batch_size_count")).toBeUndefined();
    });
  });

  describe("rejected", () => {
    it("by the batcher's checks: queued items only, each with its reason and event, counted once, and a later revocation of its address woken", async () => {
      const [a, b] = [await sweep("queued"), await sweep("queued")];
      const processing = await sweep("processing", { batchId: await newBatch("sweep") });
      const waiting = await revocation("queued", { account: a.account });
      const rejections = [
        { id: a.id, reason: "not_upgraded" },
        { id: b.id, reason: "nothing_to_sweep" },
        { id: processing.id, reason: "not_upgraded" },
      ];
      const scope = { partnerId, chainId, hotWalletId, by: "batcher" as const };
      expect(await change((tx, metrics) => rejectWork(tx, names, metrics, "sweep", scope, rejections))).toEqual([a.id, b.id]);
      // A redelivered message finds them rejected already: nothing changes, is recorded or counted again.
      expect(await change((tx, metrics) => rejectWork(tx, names, metrics, "sweep", scope, rejections))).toEqual([]);

      const rows = await db.sweep.findMany({ where: { id: { in: [a.id, b.id, processing.id] } }, orderBy: { seq: "asc" } });
      expect(rows.map((r) => [r.status, r.reason])).toEqual([
        ["rejected", "not_upgraded"],
        ["rejected", "nothing_to_sweep"],
        ["processing", null],
      ]);
      expect(await eventsOf([a.id, b.id, processing.id])).toEqual([
        ["sweep.rejected", a.id],
        ["sweep.rejected", b.id],
      ]);
      expect(await counted(sweepsFinal)).toEqual([
        ["rejected", "not_upgraded", 1],
        ["rejected", "nothing_to_sweep", 1],
      ]);
      const wakes = (await outbox()).filter(([type]) => type !== "event.recorded");
      expect(wakes).toEqual([["revocation.queued", { revocationId: waiting.id, chainId }]]);
    });

    it("by the chain-sender's simulation: processing items of its batch only, and what waited for them woken", async () => {
      const batchId = await newBatch("sweep");
      const failing = await sweep("processing", { batchId });
      const elsewhere = await sweep("processing", { batchId: await newBatch("sweep") });
      await sweep("queued", { account: failing.account, hotWalletId: otherHotWalletId });
      const scope = { partnerId, chainId, hotWalletId, by: "chain-sender" as const, batchId };
      const rejections = [failing.id, elsewhere.id].map((id) => ({ id, reason: "would_fail" }));
      expect(await change((tx, metrics) => rejectWork(tx, names, metrics, "sweep", scope, rejections))).toEqual([failing.id]);

      expect((await db.sweep.findUniqueOrThrow({ where: { id: elsewhere.id } })).status).toBe("processing");
      const wakes = (await outbox()).filter(([type]) => type !== "event.recorded");
      expect(wakes).toEqual([
        ["hot_wallet.wake", { hotWalletId, chainId }],
        ["hot_wallet.wake", { hotWalletId: otherHotWalletId, chainId }],
      ]);
      expect(await counted(sweepsFinal)).toEqual([["rejected", "would_fail", 1]]);
    });

    it("is refused to a service the table does not let reject", async () => {
      const queued = await revocation("queued");
      await expect(change((tx, metrics) => rejectWork(tx, names, metrics, "revocation", { partnerId, chainId, by: "ledger" }, [{ id: queued.id, reason: "x" }]))).rejects.toThrow(
        "no change of a revocation leads into rejected from another state by the ledger",
      );
      expect((await db.revocation.findUniqueOrThrow({ where: { id: queued.id } })).status).toBe("queued");
    });
  });

  describe("settled by the ledger (processing → done, failed or queued)", () => {
    const onChain = { txHash: "0xfeed", kind: "first_new" as const, gas: 33_275n, gasCost: 33_275n * 1_000_000_007n };

    it("writes each outcome's columns exactly, records the final states' events, counts them once, and wakes what waited", async () => {
      const batchId = await newBatch("sweep");
      // Values already there show which columns an outcome keeps: a failure keeps the fee's, an attempt that failed the transaction's.
      const [swept, failed, retried, exhausted] = [
        await sweep("processing", { batchId }),
        await sweep("processing", { batchId, fee: "1" }),
        await sweep("processing", { batchId, txHash: "0xearlier" }),
        await sweep("processing", { batchId }),
      ];
      await sweep("queued", { account: retried.account, hotWalletId: otherHotWalletId });
      const laterRevocation = await revocation("queued", { account: swept.account });
      const hugeFee = 10n ** 77n + 1n;
      const later = new Date("2026-12-01T00:00:00.000Z");
      const settlements: WorkSettlement<"sweep">[] = [
        { id: swept.id, status: "swept", reason: null, nextAttemptAt: null, onChain, done: { sweptAmount: 25_000_000n, fee: hugeFee, classicGas: 50_677n, rateBps: 7000 } },
        { id: failed.id, status: "failed", reason: "TokenTransferFailed", nextAttemptAt: null, onChain: { ...onChain, kind: "repeat" }, done: null },
        { id: retried.id, status: "queued", reason: "chain_unavailable", nextAttemptAt: later, onChain: null, done: null },
        { id: exhausted.id, status: "failed", reason: "nonce_conflict", nextAttemptAt: null, onChain: null, done: null },
      ];
      const scope = { partnerId, chainId, hotWalletId, batchId };
      expect(await change((tx, metrics) => settleWork(tx, names, metrics, "sweep", scope, settlements))).toEqual(new Set([swept.id, failed.id, retried.id, exhausted.id]));
      expect(await change((tx, metrics) => settleWork(tx, names, metrics, "sweep", scope, settlements))).toEqual(new Set());

      const rows = await db.sweep.findMany({ where: { id: { in: [swept.id, failed.id, retried.id, exhausted.id] } }, orderBy: { seq: "asc" } });
      expect(rows.map((r) => [r.status, r.reason, r.batchId, r.nextAttemptAt?.toISOString() ?? null, r.txHash, r.kind, r.gas, r.gasCost?.toFixed() ?? null, r.sweptAmount?.toFixed() ?? null, r.fee?.toFixed() ?? null, r.classicGas, r.rateBps])).toEqual([
        ["swept", null, batchId, null, "0xfeed", "first_new", 33_275n, (33_275n * 1_000_000_007n).toString(), "25000000", hugeFee.toString(), 50_677n, 7000],
        ["failed", "TokenTransferFailed", batchId, null, "0xfeed", "repeat", 33_275n, (33_275n * 1_000_000_007n).toString(), null, "1", null, null],
        ["queued", "chain_unavailable", null, later.toISOString(), "0xearlier", null, null, null, null, null, null, null],
        ["failed", "nonce_conflict", batchId, null, null, null, null, null, null, null, null, null],
      ]);
      expect(await eventsOf([swept.id, failed.id, retried.id, exhausted.id])).toEqual(
        expect.arrayContaining([
          ["sweep.swept", swept.id],
          ["sweep.failed", failed.id],
          ["sweep.failed", exhausted.id],
        ]),
      );
      expect(await eventsOf([retried.id])).toEqual([]);
      expect(await counted(sweepsFinal)).toEqual([
        ["swept", "none", 1],
        ["failed", "TokenTransferFailed", 1],
        ["failed", "nonce_conflict", 1],
      ]);
      const wakes = (await outbox()).filter(([type]) => type !== "event.recorded");
      expect(wakes).toEqual([
        ["hot_wallet.wake", { hotWalletId, chainId }],
        ["hot_wallet.wake", { hotWalletId: otherHotWalletId, chainId }],
        ["revocation.queued", { revocationId: laterRevocation.id, chainId }],
      ]);
    });

    it("changes nothing of an item no longer processing in the batch", async () => {
      const batchId = await newBatch("revocation");
      const queued = await revocation("queued");
      const elsewhere = await revocation("processing", { batchId: await newBatch("revocation") });
      const settlements: WorkSettlement<"revocation">[] = [queued, elsewhere].map((r) => ({ id: r.id, status: "revoked", reason: null, nextAttemptAt: null, onChain, done: null }));
      expect(await change((tx, metrics) => settleWork(tx, names, metrics, "revocation", { partnerId, chainId, batchId }, settlements))).toEqual(new Set());
      expect((await db.revocation.findMany({ where: { id: { in: [queued.id, elsewhere.id] } }, orderBy: { seq: "asc" } })).map((r) => r.status)).toEqual(["queued", "processing"]);
      expect(await outbox()).toEqual([]);
      expect(await counted(revocationsFinal)).toEqual([]);
    });

    it("revocations: their share of the gas, their events, and the sweeps and revocation rounds that waited for them woken", async () => {
      const batchId = await newBatch("revocation");
      const [revoked, skipped] = [await revocation("processing", { batchId }), await revocation("processing", { batchId })];
      await sweep("queued", { account: revoked.account });
      const { txHash, gas, gasCost } = onChain;
      const settlements: WorkSettlement<"revocation">[] = [
        { id: revoked.id, status: "revoked", reason: null, nextAttemptAt: null, onChain: { txHash, gas, gasCost }, done: null },
        { id: skipped.id, status: "failed", reason: "not_applied", nextAttemptAt: null, onChain: { txHash, gas, gasCost }, done: null },
      ];
      await change((tx, metrics) => settleWork(tx, names, metrics, "revocation", { partnerId, chainId, batchId }, settlements));

      const rows = await db.revocation.findMany({ where: { id: { in: [revoked.id, skipped.id] } }, orderBy: { seq: "asc" } });
      expect(rows.map((r) => [r.status, r.reason, r.txHash, r.gas, r.gasCost?.toFixed()])).toEqual([
        ["revoked", null, txHash, gas, gasCost.toString()],
        ["failed", "not_applied", txHash, gas, gasCost.toString()],
      ]);
      expect(await eventsOf([revoked.id, skipped.id])).toEqual(expect.arrayContaining([["revocation.revoked", revoked.id], ["revocation.failed", skipped.id]]));
      expect(await counted(revocationsFinal)).toEqual([
        ["revoked", "none", 1],
        ["failed", "not_applied", 1],
      ]);
      const wakes = (await outbox()).filter(([type]) => type !== "event.recorded");
      expect(wakes).toContainEqual(["hot_wallet.wake", { hotWalletId, chainId }]);
      expect(wakes.map(([type]) => type)).toContain("revocation.queued");
    });
  });

  describe("left out of its batch unsent by the chain-sender (processing → queued)", () => {
    it("sweeps: back in the queue without the batch, the attempt taken back, no reason, due when told; their hot wallet woken; others untouched", async () => {
      const batchId = await newBatch("sweep");
      const dueAt = new Date(Date.now() + 12_000);
      const [left, stays, elsewhere, done] = [await sweep("processing", { batchId }), await sweep("processing", { batchId }), await sweep("processing", { batchId: await newBatch("sweep") }), await sweep("swept", { batchId })];
      const changed = await change((tx) => returnToQueue(tx, names, "sweep", { partnerId, chainId, hotWalletId, batchId }, [left.id, elsewhere.id, done.id], dueAt));

      expect(changed).toEqual([left.id]);
      const rows = await db.sweep.findMany({ where: { id: { in: [left.id, stays.id, elsewhere.id, done.id] } } });
      const row = (id: string) => rows.find((r) => r.id === id)!;
      expect([row(left.id)].map((r) => [r.status, r.batchId, r.attempts, r.reason, r.nextAttemptAt?.getTime()])).toEqual([["queued", null, 0, null, dueAt.getTime()]]);
      expect([stays, elsewhere, done].map((s) => [row(s.id).status, row(s.id).batchId])).toEqual([
        ["processing", batchId],
        ["processing", elsewhere.batchId],
        ["swept", batchId],
      ]);
      expect(await eventsOf([left.id])).toEqual([]);
      expect((await outbox()).filter(([type]) => type === "hot_wallet.wake")).toEqual([["hot_wallet.wake", { hotWalletId, chainId }]]);
    });

    it("revocations: back in the queue, the attempt taken back; nothing for an empty list", async () => {
      const batchId = await newBatch("revocation");
      const left = await revocation("processing", { batchId });
      expect(await change((tx) => returnToQueue(tx, names, "revocation", { partnerId, chainId, batchId }, [], new Date()))).toEqual([]);
      expect(await change((tx) => returnToQueue(tx, names, "revocation", { partnerId, chainId, batchId }, [left.id], new Date()))).toEqual([left.id]);
      expect(await db.revocation.findUniqueOrThrow({ where: { id: left.id } })).toMatchObject({ status: "queued", batchId: null, attempts: 0, reason: null });
      expect(await counted(revocationsFinal)).toEqual([]);
    });
  });

  describe("taken back into a batch whose given-up transaction was mined (the correction → processing)", () => {
    it("takes back the items its failure left queued or rejected (in no batch) or failed (in it), each with the state it left; nothing twice", async () => {
      const batchId = await newBatch("sweep");
      const [queued, rejected, failed] = [await sweep("queued"), await sweep("rejected"), await sweep("failed", { batchId })];
      await db.sweep.updateMany({ where: { id: { in: [rejected.id, failed.id] } }, data: { reason: "nonce_conflict", nextAttemptAt: new Date() } });
      // Claimed into another batch since, rejected by the simulation in this one, or failed in another: left where they are.
      const [elsewhere, simulated, failedElsewhere] = [await sweep("processing", { batchId: await newBatch("sweep") }), await sweep("rejected", { batchId }), await sweep("failed", { batchId: await newBatch("sweep") })];
      const ids = [queued, rejected, failed, elsewhere, simulated, failedElsewhere].map((s) => s.id);

      const back = await change((tx) => takeBackIntoBatch(tx, "sweep", batchId, ids));
      expect(back.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))).toEqual([
        { id: queued.id, was: "queued", reason: null },
        { id: rejected.id, was: "rejected", reason: "nonce_conflict" },
        { id: failed.id, was: "failed", reason: "nonce_conflict" },
      ]);
      expect(await change((tx) => takeBackIntoBatch(tx, "sweep", batchId, ids))).toEqual([]);
      const rows = await db.sweep.findMany({ where: { id: { in: ids } } });
      const row = (id: string) => rows.find((r) => r.id === id)!;
      expect([queued, rejected, failed].map((s) => [row(s.id).status, row(s.id).batchId, row(s.id).reason, row(s.id).nextAttemptAt])).toEqual([
        ["processing", batchId, null, null],
        ["processing", batchId, null, null],
        ["processing", batchId, null, null],
      ]);
      expect([elsewhere, simulated, failedElsewhere].map((s) => row(s.id).status)).toEqual(["processing", "rejected", "failed"]);
    });
  });
});
