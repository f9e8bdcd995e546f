import { randomBytes, randomInt } from "node:crypto";
import { createDb, workBacklog, type Db } from "./index";

// The backlog query against the real schema: chains of their own, so the rows of other tests on
// the shared test database are not counted.

describe("the work backlog read from the database", () => {
  let db: Db;
  const chain = randomInt(900_000_000, 1_000_000_000);
  const [a, b, unread] = [chain, chain + 1, chain + 2];
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const address = () => `0x${randomBytes(20).toString("hex")}`;

  beforeAll(() => {
    db = createDb(process.env.DATABASE_URL!);
  });
  afterAll(() => db.$disconnect());

  async function partner(enabled: boolean) {
    const { id } = await db.partner.create({ data: { name: "backlog", environment: "testnet", enabled } });
    const gasWallet = await db.gasWallet.create({ data: { partnerId: id, address: address(), encryptedKey: "x", kekId: "test" } });
    return { id, gasWalletId: gasWallet.id };
  }

  async function hotWallet(owner: { id: string }, chainId: number) {
    return db.hotWallet.create({ data: { partnerId: owner.id, chainId, address: address(), delegate: address(), status: "active" } });
  }

  async function batch(owner: { gasWalletId: string }, chainId: number, purpose: "sweep" | "revocation", status: "open" | "sent" | "confirmed" | "failed", claimedMinutesAgo: number) {
    return (await db.batch.create({ data: { chainId, gasWalletId: owner.gasWalletId, purpose, status, createdAt: ago(claimedMinutesAgo) } })).id;
  }

  type Work = { status: "queued" | "processing" | "swept" | "revoked" | "failed" | "rejected"; createdMinutesAgo: number; pausedUntilMinutesAgo?: number; batchId?: string };

  async function sweep(owner: { id: string }, wallet: { id: string; chainId: number }, work: Work) {
    await db.sweep.create({
      data: {
        partnerId: owner.id,
        chainId: wallet.chainId,
        hotWalletId: wallet.id,
        account: address(),
        token: "USDT",
        status: work.status,
        createdAt: ago(work.createdMinutesAgo),
        nextAttemptAt: work.pausedUntilMinutesAgo === undefined ? null : ago(work.pausedUntilMinutesAgo),
        batchId: work.batchId,
      },
    });
  }

  async function revocation(owner: { id: string }, chainId: number, work: Work) {
    await db.revocation.create({
      data: { partnerId: owner.id, chainId, account: address(), authorization: {}, status: work.status, createdAt: ago(work.createdMinutesAgo), batchId: work.batchId },
    });
  }

  it("counts each chain's sweeps and revocations by stage, with the longest wait at each", async () => {
    const enabled = await partner(true);
    const disabled = await partner(false);
    const [onA, onB, onUnread, disabledOnA] = [await hotWallet(enabled, a), await hotWallet(enabled, b), await hotWallet(enabled, unread), await hotWallet(disabled, a)];

    // Chain a: queued for an hour; a retry whose pause ended 10 minutes ago; in batches claimed 20 (open), 40 (sent), 5 (confirmed) and 15 (failed) minutes ago.
    await sweep(enabled, onA, { status: "queued", createdMinutesAgo: 60 });
    await sweep(enabled, onA, { status: "queued", createdMinutesAgo: 180, pausedUntilMinutesAgo: 10 });
    await sweep(enabled, onA, { status: "processing", createdMinutesAgo: 120, batchId: await batch(enabled, a, "sweep", "open", 20) });
    await sweep(enabled, onA, { status: "processing", createdMinutesAgo: 120, batchId: await batch(enabled, a, "sweep", "sent", 40) });
    await sweep(enabled, onA, { status: "processing", createdMinutesAgo: 30, batchId: await batch(enabled, a, "sweep", "confirmed", 5) });
    await sweep(enabled, onA, { status: "processing", createdMinutesAgo: 30, batchId: await batch(enabled, a, "sweep", "failed", 15) });
    for (const status of ["swept", "failed", "rejected"] as const) await sweep(enabled, onA, { status, createdMinutesAgo: 600 });
    // A disabled partner's queued sweep waits by design; its batch in flight is still seen through.
    await sweep(disabled, disabledOnA, { status: "queued", createdMinutesAgo: 300 });
    await sweep(disabled, disabledOnA, { status: "processing", createdMinutesAgo: 300, batchId: await batch(disabled, a, "sweep", "open", 50) });
    await revocation(enabled, a, { status: "queued", createdMinutesAgo: 10 });
    await revocation(enabled, a, { status: "processing", createdMinutesAgo: 10, batchId: await batch(enabled, a, "revocation", "sent", 1) });
    await revocation(enabled, a, { status: "revoked", createdMinutesAgo: 600 });
    await revocation(disabled, a, { status: "queued", createdMinutesAgo: 600 });

    // Chain b: one retry still pausing (counted, not yet waiting), one whose pause ended 30 minutes ago.
    await sweep(enabled, onB, { status: "queued", createdMinutesAgo: 180, pausedUntilMinutesAgo: -5 });
    await sweep(enabled, onB, { status: "queued", createdMinutesAgo: 120, pausedUntilMinutesAgo: 30 });
    // A chain not asked for.
    await sweep(enabled, onUnread, { status: "queued", createdMinutesAgo: 60 });

    const rows = await workBacklog(db, [a, b]);
    // Whole minutes: the query runs well within a minute of the rows' times.
    const read = rows.map((r) => [r.chainId, r.work, r.stage, r.items, Math.floor(r.oldestWaitSeconds / 60)]).sort((x, y) => String(x).localeCompare(String(y)));
    expect(read).toEqual(
      [
        [a, "sweep", "queued", 2, 60],
        [a, "sweep", "claimed", 2, 50],
        [a, "sweep", "sent", 1, 40],
        [a, "sweep", "settling", 2, 15],
        [a, "revocation", "queued", 1, 10],
        [a, "revocation", "sent", 1, 1],
        [b, "sweep", "queued", 2, 30],
      ].sort((x, y) => String(x).localeCompare(String(y))),
    );
  });

  it("returns nothing for chains with nothing waiting", async () => {
    expect(await workBacklog(db, [randomInt(800_000_000, 900_000_000)])).toEqual([]);
  });
});
