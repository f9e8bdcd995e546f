import { randomUUID } from "node:crypto";
import { createDb, type BatchPurpose, type BatchStatus, type Db } from "@sweep/db";
import { Wallet } from "ethers";
import { queueNames } from "@sweep/messaging";
import { createTestPartner } from "@sweep/testkit";
import { changeBatch, openAnnouncedBatch, openBatch, openGapFillBatch, type BatchChange } from "./batch-transitions";

const chainId = 97;

/** A batch's changes, on the real database, and what they told. */
describe("the changes of a batch's state", () => {
  // A prefix of its own, so no relay of another test publishes these outbox rows.
  const names = queueNames(`batch-transitions-${randomUUID().slice(0, 8)}`);
  let db: Db;
  let gasWalletId: string;
  let partnerId: string;
  let hotWalletId: string;

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    ({ partnerId } = await createTestPartner(db, "batch transitions partner"));
    ({ id: gasWalletId } = await db.gasWallet.findUniqueOrThrow({ where: { partnerId } }));
    ({ id: hotWalletId } = await db.hotWallet.create({ data: { partnerId, chainId, address: Wallet.createRandom().address, delegate: Wallet.createRandom().address, status: "active" } }));
  });
  afterAll(() => db.$disconnect());
  afterEach(() => db.outboxMessage.deleteMany({ where: { exchange: names.workExchange } }));

  const batch = async (status: BatchStatus, purpose: BatchPurpose = "withdrawal", reason: string | null = null) =>
    (await db.batch.create({ data: { chainId, gasWalletId, purpose, status, reason }, select: { id: true } })).id;
  const row = async (id: string) => {
    const b = await db.batch.findUniqueOrThrow({ where: { id } });
    return [b.status, b.reason, b.purpose, b.drainTo];
  };
  const outbox = async () => (await db.outboxMessage.findMany({ where: { exchange: names.workExchange }, orderBy: { id: "asc" } })).map((m) => [m.type, m.payload]);
  const change = (id: string, from: BatchStatus, to: BatchChange, purpose: BatchPurpose = "withdrawal") =>
    db.$transaction((tx) => changeBatch(tx, names, { id, chainId, purpose, hotWalletId: purpose === "sweep" ? hotWalletId : null, partnerId }, from, to));

  it("opens a batch with its columns, open; announced, with its batch.ready", async () => {
    const opened = await db.$transaction((tx) => openBatch(tx, { chainId, gasWalletId, purpose: "withdrawal", drainTo: "0x00000000000000000000000000000000000000aa" }));
    expect(await row(opened)).toEqual(["open", null, "withdrawal", "0x00000000000000000000000000000000000000aa"]);
    expect(await outbox()).toEqual([]);
    const announced = await db.$transaction((tx) => openAnnouncedBatch(tx, names, { chainId, gasWalletId, purpose: "withdrawal" }));
    expect(await row(announced)).toEqual(["open", null, "withdrawal", null]);
    expect(await outbox()).toEqual([["batch.ready", { batchId: announced, chainId }]]);
  });

  it("opens a gap filler's batch sent", async () => {
    const id = await db.$transaction((tx) => openGapFillBatch(tx, { chainId, gasWalletId }));
    expect(await row(id)).toEqual(["sent", null, "gap_fill", null]);
  });

  it.each<[string, BatchStatus, BatchChange, unknown[]]>([
    ["open → sent", "open", { to: "sent" }, ["sent", null]],
    ["open → confirmed, nothing left to send", "open", { to: "confirmed" }, ["confirmed", null]],
    ["sent → confirmed, mined", "sent", { to: "confirmed" }, ["confirmed", null]],
    ["failed → confirmed, the correction: its reason cleared", "failed", { to: "confirmed" }, ["confirmed", null]],
  ])("%s: once, a redelivery changes nothing", async (_what, from, to, expected) => {
    const id = await batch(from, "withdrawal", from === "failed" ? "nonce_conflict" : null);
    expect(await change(id, from, to)).toBe(true);
    expect(await change(id, from, to)).toBe(false);
    expect((await row(id)).slice(0, 2)).toEqual(expected);
    expect(await outbox()).toEqual([]);
  });

  it.each<[string, BatchStatus, BatchChange]>([
    ["sent", "open", { to: "sent" }],
    ["confirmed with nothing left to send", "open", { to: "confirmed" }],
    ["confirmed, mined", "sent", { to: "confirmed" }],
    ["confirmed, restored", "failed", { to: "confirmed" }],
  ])("wakes the next batch of its kind once %s: a sweep batch its hot wallet, a revocation batch its partner's oldest queued revocation", async (_what, from, to) => {
    const [sweeps, revocations] = [await batch(from, "sweep", from === "failed" ? "nonce_conflict" : null), await batch(from, "revocation", from === "failed" ? "nonce_conflict" : null)];
    const queued = await db.revocation.create({
      data: { partnerId, chainId, account: Wallet.createRandom().address, authorization: { chain_id: chainId, address: Wallet.createRandom().address, nonce: 0, y_parity: 0, r: "0x01", s: "0x01" }, status: "queued" },
    });
    expect(await change(sweeps, from, to, "sweep")).toBe(true);
    expect(await change(revocations, from, to, "revocation")).toBe(true);
    expect(await change(revocations, from, to, "revocation")).toBe(false);
    expect(await outbox()).toEqual([
      ["hot_wallet.wake", { hotWalletId, chainId }],
      ["revocation.queued", { revocationId: queued.id, chainId }],
    ]);
    await db.revocation.delete({ where: { id: queued.id } });
  });

  it("fails an open or sent batch with its reason and batch.failed, once", async () => {
    const [open, sent] = [await batch("open"), await batch("sent", "sweep")];
    expect(await change(open, "open", { to: "failed", reason: "insufficient_gas_balance" })).toBe(true);
    expect(await change(sent, "sent", { to: "failed", reason: "nonce_conflict" }, "sweep")).toBe(true);
    expect(await change(sent, "sent", { to: "failed", reason: "nonce_conflict" }, "sweep")).toBe(false);
    expect([(await row(open)).slice(0, 2), (await row(sent)).slice(0, 2)]).toEqual([
      ["failed", "insufficient_gas_balance"],
      ["failed", "nonce_conflict"],
    ]);
    expect(await outbox()).toEqual([
      ["batch.failed", { batchId: open, chainId, reason: "insufficient_gas_balance" }],
      ["batch.failed", { batchId: sent, chainId, reason: "nonce_conflict" }],
    ]);
  });

  it("fails a gap filler without batch.failed: it has no items to retry", async () => {
    const id = await batch("sent", "gap_fill");
    expect(await change(id, "sent", { to: "failed", reason: "nonce_conflict" }, "gap_fill")).toBe(true);
    expect((await row(id)).slice(0, 2)).toEqual(["failed", "nonce_conflict"]);
    expect(await outbox()).toEqual([]);
  });

  it("changes nothing of a batch no longer in the state the change starts from", async () => {
    const id = await batch("sent");
    expect(await change(id, "open", { to: "failed", reason: "internal" })).toBe(false);
    expect((await row(id)).slice(0, 2)).toEqual(["sent", null]);
    expect(await outbox()).toEqual([]);
  });

  it.each<[BatchStatus, BatchChange]>([
    ["confirmed", { to: "sent" }],
    ["sent", { to: "sent" }],
    ["failed", { to: "sent" }],
    ["confirmed", { to: "failed", reason: "internal" }],
  ])("refuses %s → %o, writing nothing", async (from, to) => {
    const id = await batch(from);
    await expect(change(id, from, to)).rejects.toThrow(`no change of a batch leads from ${from} into ${to.to}`);
    expect((await row(id)).slice(0, 2)).toEqual([from, null]);
    expect(await outbox()).toEqual([]);
  });
});
