/**
 * One revocation round against a real anvil and the real database: the checks before sending, the
 * claim into one batch of the partner's gas wallet, and the order between a deposit address's
 * sweeps and its revocations (with the sweep round on the other side).
 */
import { createDb, type Db, type Tx } from "@sweep/db";
import { queueNames, type QueueNames } from "@sweep/messaging";
import { createTestPartner, startTestChain, type TestChain } from "@sweep/testkit";
import { Wallet, ZeroAddress, type BaseWallet } from "ethers";
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { claimRevocations, lockGasWallet } from "../src/revocation-claim";
import { createWorkRound } from "../src/work-round";
import { findDueRevocationPartners } from "../src/revocation-work";
import {
  activeHotWallet,
  delegateOnChain,
  feeCeilings,
  holdLock,
  insertRevocation,
  insertSweep,
  logger,
  revocationAuthorization,
  storedAuthorization,
  tokenOnlyAddress,
  uniquePrefix,
  waiterFor,
  whileLockHeld,
  type HotWalletFixture,
} from "./support";

const reads = { batchSize: 50, concurrency: 8 };
/** Rows inserted one after the other get distinct created_at (milliseconds), which the order between sweeps and revocations compares. */
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("revocation round", () => {
  let chain: TestChain;
  let db: Db;
  let names: QueueNames;
  let revocationRound: ReturnType<typeof createWorkRound<"revocation">>;
  let sweepRound: ReturnType<typeof createWorkRound<"sweep">>;
  let hotWallet: HotWalletFixture;
  let gasWalletId: string;
  const providers: ChainProvider[] = [];
  const provider = (rpcUrl: string) => {
    const p = createProvider(rpcUrl, 97, 2_000);
    providers.push(p);
    return p;
  };
  const revocationRoundOn = (rpcUrl: string, onDb: Db = db) =>
    createWorkRound("revocation", { db: onDb, names, providers: new Map([[97, provider(rpcUrl)]]), feeCeilings, settings: { gasMarginBps: 8_000, maxRevocations: 500, reads }, logger });

  beforeAll(async () => {
    chain = await startTestChain(97);
    db = createDb(process.env.DATABASE_URL!);
    names = queueNames(uniquePrefix());
    revocationRound = revocationRoundOn(chain.rpcUrl);
    sweepRound = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings: { gasMarginBps: 8_000, maxSweeps: 1_000, maxSent: 2, reads }, logger });
  });
  afterAll(async () => {
    providers.forEach((p) => p.destroy());
    await db.$disconnect();
    await chain.stop();
  });
  beforeEach(async () => {
    hotWallet = await activeHotWallet(db, chain);
    gasWalletId = (await db.gasWallet.findUniqueOrThrow({ where: { partnerId: hotWallet.partnerId } })).id;
  });

  const revoke = () => revocationRound({ partnerId: hotWallet.partnerId, chainId: 97 });
  const revocation = (id: string) => db.revocation.findUniqueOrThrow({ where: { id } });
  const sweep = (id: string) => db.sweep.findUniqueOrThrow({ where: { id } });
  const batchOf = (batchId: string) => db.batch.findUniqueOrThrow({ where: { id: batchId }, include: { items: { orderBy: { position: "asc" } } } });
  const insert = (wallet: BaseWallet, nonce: number) => insertRevocation(db, chain, hotWallet.partnerId, { account: wallet.address, authorization: revocationAuthorization(wallet, nonce, 97) });
  /** A deposit address delegated on chain (its nonce is 1 then), by default to the hot wallet's delegate. */
  const delegatedDeposit = async (to?: string) => {
    const wallet = await tokenOnlyAddress(chain);
    await delegateOnChain(chain, wallet, to ?? hotWallet.delegate);
    return wallet;
  };
  /** What the chain-sender and the ledger do for a mined revocation batch, the chain included. */
  const revokedOnChain = async (batchId: string, wallet: BaseWallet) => {
    await delegateOnChain(chain, wallet, ZeroAddress);
    await db.batch.update({ where: { id: batchId }, data: { status: "confirmed" } });
    await db.revocation.updateMany({ where: { batchId }, data: { status: "revoked" } });
  };

  it("rejects each failed check for good, with its revocation.rejected event, and batches the rest", async () => {
    const plain = Wallet.createRandom();
    const stale = await delegatedDeposit();
    const forADelegate = await delegatedDeposit();
    const elsewhere = await delegatedDeposit(Wallet.createRandom().address);
    const ids = {
      not_delegated: await insert(plain, 0),
      stale_authorization: await insert(stale, 0),
      // Signed for a delegate: carried, it would delegate the address rather than free it.
      invalid_authorization: await insertRevocation(db, chain, hotWallet.partnerId, { account: forADelegate.address, authorization: storedAuthorization(forADelegate, hotWallet.delegate, 1, 97) }),
      // A delegation to any delegate is one to remove.
      good: await insert(elsewhere, 1),
    };

    const result = await revoke();

    expect(result).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    for (const reason of ["not_delegated", "stale_authorization", "invalid_authorization"] as const) {
      expect(await revocation(ids[reason])).toMatchObject({ status: "rejected", reason, batchId: null, attempts: 0 });
      const events = await db.event.findMany({ where: { subjectId: ids[reason] } });
      expect(events).toEqual([expect.objectContaining({ type: "revocation.rejected", partnerId: hotWallet.partnerId, dedupeKey: `revocation.rejected:${ids[reason]}` })]);
      expect(await db.outboxMessage.count({ where: { type: "event.recorded", payload: { path: ["eventId"], equals: events[0]!.id } } })).toBe(1);
    }
    expect(await revocation(ids.good)).toMatchObject({ status: "processing", attempts: 1, reason: null });

    // While its batch is being prepared nothing more is claimed, and nothing is rejected twice.
    expect(await revoke()).toEqual({ outcome: "in_flight" });
    expect(await db.event.count({ where: { subjectId: { in: Object.values(ids) } } })).toBe(3);
  });

  it("claims the revocations of several accounts into one batch of the gas wallet, one per account", async () => {
    const [a, b, c] = [await delegatedDeposit(), await delegatedDeposit(), await delegatedDeposit()];
    const ids = [await insert(a!, 1), await insert(b!, 1), await insert(a!, 1), await insert(c!, 1)];

    const result = await revoke();

    if (result.outcome !== "planned" || result.batchId === null) throw new Error(`no batch: ${JSON.stringify(result)}`);
    expect(result.plan.waiting).toEqual([{ revocationId: ids[2], reason: "account_in_batch" }]);
    const batch = await batchOf(result.batchId);
    expect(batch).toMatchObject({ purpose: "revocation", status: "open", chainId: 97, gasWalletId, hotWalletId: null });
    expect(batch.items.map((i) => [i.position, i.revocationId, i.sweepId, i.withAuthorization, i.kind])).toEqual([
      [0, ids[0], null, true, null],
      [1, ids[1], null, true, null],
      [2, ids[3], null, true, null],
    ]);
    for (const id of [ids[0], ids[1], ids[3]]) expect(await revocation(id!)).toMatchObject({ status: "processing", batchId: batch.id, attempts: 1, reason: null });
    expect(await revocation(ids[2]!)).toMatchObject({ status: "queued", batchId: null, attempts: 0 });
    const ready = await db.outboxMessage.findMany({ where: { type: "batch.ready", payload: { path: ["batchId"], equals: batch.id } } });
    expect(ready).toEqual([expect.objectContaining({ exchange: names.workExchange, routingKey: names.sender(97), payload: { batchId: batch.id, chainId: 97 } })]);

    // Sent, the batch no longer holds the next one back, but the account's next revocation waits
    // for it to settle; once the delegation is gone, there is nothing left to remove.
    await db.batch.update({ where: { id: batch.id }, data: { status: "sent" } });
    expect(await revoke()).toEqual({ outcome: "nothing_due" });
    await revokedOnChain(batch.id, a!);
    expect(await revoke()).toMatchObject({ outcome: "planned", batchId: null, plan: { rejections: [{ revocationId: ids[2], reason: "not_delegated" }] } });
  });

  it("waits behind a sweep of the same account requested before it, until that sweep settled", async () => {
    const deposit = await delegatedDeposit();
    const sweepId = await insertSweep(db, chain, hotWallet, { account: deposit.address });
    await tick();
    const id = await insert(deposit, 1);

    expect(await revoke()).toEqual({ outcome: "nothing_due" });
    // The sweep goes first, on the delegation the revocation will remove.
    const swept = await sweepRound(hotWallet.hotWalletId);
    if (swept.outcome !== "planned" || swept.batchId === null) throw new Error("no sweep batch");
    expect(await sweep(sweepId)).toMatchObject({ status: "processing" });
    await db.batch.update({ where: { id: swept.batchId }, data: { status: "sent" } });
    expect(await revoke()).toEqual({ outcome: "nothing_due" });
    expect(await revocation(id)).toMatchObject({ status: "queued", attempts: 0 });

    await db.batch.update({ where: { id: swept.batchId }, data: { status: "confirmed" } });
    await db.sweep.update({ where: { id: sweepId }, data: { status: "swept" } });
    expect(await revoke()).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect(await revocation(id)).toMatchObject({ status: "processing", attempts: 1 });
  });

  it("holds a sweep requested after a revocation until it settled; then the sweep's own checks decide", async () => {
    const deposit = await delegatedDeposit();
    const id = await insert(deposit, 1);
    await tick();
    const later = await insertSweep(db, chain, hotWallet, { account: deposit.address });

    // The address is delegated to the hot wallet's delegate: without the revocation, this sweep would go now.
    expect(await sweepRound(hotWallet.hotWalletId)).toEqual({ outcome: "nothing_due" });
    const claimed = await revoke();
    if (claimed.outcome !== "planned" || claimed.batchId === null) throw new Error("no revocation batch");
    expect(await sweepRound(hotWallet.hotWalletId)).toEqual({ outcome: "nothing_due" });
    expect(await sweep(later)).toMatchObject({ status: "queued", attempts: 0, reason: null });

    await revokedOnChain(claimed.batchId, deposit);
    expect(await revocation(id)).toMatchObject({ status: "revoked" });
    expect(await sweepRound(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: null, plan: { rejections: [{ sweepId: later, reason: "not_upgraded" }] } });

    // A sweep bringing a new authorization, at the nonce the revocation left, delegates the address again.
    const renewed = await insertSweep(db, chain, hotWallet, { account: deposit.address, authorization: storedAuthorization(deposit, hotWallet.delegate, 2, 97) });
    const result = await sweepRound(hotWallet.hotWalletId);
    if (result.outcome !== "planned" || result.batchId === null) throw new Error("no sweep batch");
    expect((await batchOf(result.batchId)).items.map((i) => [i.sweepId, i.kind, i.withAuthorization])).toEqual([[renewed, "first", true]]);
  });

  it("does not let an earlier sweep wait for an authorization that is held behind a revocation", async () => {
    const deposit = await tokenOnlyAddress(chain);
    const first = await insertSweep(db, chain, hotWallet, { account: deposit.address });
    await tick();
    const id = await insert(deposit, 0);
    await tick();
    const after = await insertSweep(db, chain, hotWallet, { account: deposit.address, authorization: storedAuthorization(deposit, hotWallet.delegate, 0, 97) });

    // The first would wait for the later sweep's authorization, which waits for the revocation,
    // which waits for the first: it is decided now instead.
    expect(await sweepRound(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: null, plan: { rejections: [{ sweepId: first, reason: "not_upgraded" }], waiting: [] } });
    expect(await revoke()).toMatchObject({ outcome: "planned", batchId: null, plan: { rejections: [{ revocationId: id, reason: "not_delegated" }] } });
    const result = await sweepRound(hotWallet.hotWalletId);
    if (result.outcome !== "planned" || result.batchId === null) throw new Error("no sweep batch");
    expect((await batchOf(result.batchId)).items.map((i) => [i.sweepId, i.kind])).toEqual([[after, "first_new"]]);
  });

  it("leaves a revocation pausing before its retry queued until its pause is over", async () => {
    const deposit = await delegatedDeposit();
    const id = await insertRevocation(db, chain, hotWallet.partnerId, { account: deposit.address, authorization: revocationAuthorization(deposit, 1, 97), nextAttemptAt: new Date(Date.now() + 60_000) });
    expect(await revoke()).toEqual({ outcome: "nothing_due" });
    await db.revocation.update({ where: { id }, data: { nextAttemptAt: new Date(Date.now() - 1) } });
    expect(await revoke()).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
  });

  it("gives one batch to two replicas claiming one partner's revocations at once", async () => {
    const deposits = [await delegatedDeposit(), await delegatedDeposit(), await delegatedDeposit()];
    for (const d of deposits) await insert(d, 1);
    const otherDb = createDb(process.env.DATABASE_URL!);
    try {
      const replica = revocationRoundOn(chain.rpcUrl, otherDb);
      const results = await Promise.all([revoke(), replica({ partnerId: hotWallet.partnerId, chainId: 97 }), revoke(), replica({ partnerId: hotWallet.partnerId, chainId: 97 })]);
      expect(results.filter((r) => r.outcome === "planned" && r.batchId !== null)).toHaveLength(1);
      const batches = await db.batch.findMany({ where: { gasWalletId }, include: { items: true } });
      expect(batches).toHaveLength(1);
      expect(batches[0]!.items).toHaveLength(3);
    } finally {
      await otherDb.$disconnect();
    }
  });

  it("lets one partner at a time revoke an account: another partner's claim waits for it, and its revocation for that batch to settle", async () => {
    const deposit = await delegatedDeposit();
    const other = await createTestPartner(db);
    const here = await insert(deposit, 1);
    // A revocation of an address with no delegation, rejected: its event's foreign key stops the claim at the partner's row.
    await insert(Wallet.createRandom(), 0);
    const there = await insertRevocation(db, chain, other.partnerId, { account: deposit.address, authorization: revocationAuthorization(deposit, 1, 97) });
    const otherDb = createDb(process.env.DATABASE_URL!);
    const partnerRow = await holdLock(db, (tx) => tx.$executeRaw`SELECT 1 FROM partners WHERE id = ${hotWallet.partnerId}::uuid FOR UPDATE`);
    const replica = revocationRoundOn(chain.rpcUrl, otherDb);
    let firstEnded = false;
    const first = revoke().finally(() => (firstEnded = true));
    try {
      const firstClaim = await waiterFor(db, partnerRow.pid, () => firstEnded);
      expect(firstClaim).not.toBeNull();
      let secondEnded = false;
      const second = replica({ partnerId: other.partnerId, chainId: 97 }).finally(() => (secondEnded = true));
      // Without a lock across partners, the second would find the first's revocation still queued and send one too.
      expect(await waiterFor(db, firstClaim!, () => secondEnded)).not.toBeNull();
      await partnerRow.release();
      const claimed = await first;
      if (claimed.outcome !== "planned" || claimed.batchId === null) throw new Error("no revocation batch");
      expect(await second).toMatchObject({ outcome: "planned", batchId: null, plan: { items: [], rejections: [] } });
      expect(await revocation(here)).toMatchObject({ status: "processing", batchId: claimed.batchId });
      expect(await revocation(there)).toMatchObject({ status: "queued", attempts: 0, reason: null });

      // Once the first is revoked, the other partner's revocation has no delegation left to remove.
      await revokedOnChain(claimed.batchId, deposit);
      expect(await replica({ partnerId: other.partnerId, chainId: 97 })).toMatchObject({ outcome: "planned", batchId: null, plan: { rejections: [{ revocationId: there, reason: "not_delegated" }] } });
    } finally {
      await partnerRow.release();
      await first.catch(() => undefined);
      await otherDb.$disconnect();
    }
  });

  it("locks the gas wallet against another revocation claim, never against a batch inserted for it", async () => {
    const lock = (tx: Tx) => lockGasWallet(tx, hotWallet.partnerId);
    await expect(whileLockHeld(db, lock, lock)).rejects.toThrow(/lock timeout/);
    const inserted = await whileLockHeld(db, lock, (tx) => tx.batch.create({ data: { chainId: 97, gasWalletId, hotWalletId: hotWallet.hotWalletId, purpose: "sweep" } }));
    expect(inserted.status).toBe("open");
  });

  it("rejects nothing when the chain does not answer, and decides once it does", async () => {
    const id = await insert(Wallet.createRandom(), 0);
    const blind = revocationRoundOn("http://127.0.0.1:9");
    expect(await blind({ partnerId: hotWallet.partnerId, chainId: 97 })).toEqual({ outcome: "chain_unavailable" });
    expect(await revocation(id)).toMatchObject({ status: "queued", reason: null });
    expect(await db.event.count({ where: { subjectId: id } })).toBe(0);
    expect(await revoke()).toMatchObject({ outcome: "planned", plan: { rejections: [{ revocationId: id, reason: "not_delegated" }] } });
  });

  it("does not serve a chain it has no provider for", async () => {
    expect(await revocationRound({ partnerId: hotWallet.partnerId, chainId: 56 })).toEqual({ outcome: "not_served" });
  });
  it("claims and rejects nothing of a disabled partner, the poll passes it by, and its revocations go once it is enabled again", async () => {
    const delegated = await delegatedDeposit();
    const notDelegated = await tokenOnlyAddress(chain);
    const goodId = await insert(delegated, 1);
    const rejectableId = await insert(notDelegated, 0);
    await db.partner.update({ where: { id: hotWallet.partnerId }, data: { enabled: false } });

    expect(await revoke()).toEqual({ outcome: "disabled" });
    // The claim checks again in its own transaction: disabled between the round's load and the claim.
    expect(await claimRevocations(db, names, { partnerId: hotWallet.partnerId, chainId: 97, accounts: new Map(), gasBudget: 10n ** 7n, limit: 100, lastPass: true })).toEqual({
      outcome: "disabled",
    });
    expect(await findDueRevocationPartners(db, 97, new Date())).not.toContain(hotWallet.partnerId);
    for (const id of [goodId, rejectableId]) expect(await revocation(id)).toMatchObject({ status: "queued", reason: null, batchId: null });
    expect(await db.batch.count({ where: { gasWalletId } })).toBe(0);
    expect(await db.event.count({ where: { partnerId: hotWallet.partnerId } })).toBe(0);

    await db.partner.update({ where: { id: hotWallet.partnerId }, data: { enabled: true } });
    expect(await findDueRevocationPartners(db, 97, new Date())).toContain(hotWallet.partnerId);
    expect(await revoke()).toMatchObject({ outcome: "planned", batchId: expect.any(String), plan: { rejections: [{ revocationId: rejectableId, reason: "not_delegated" }] } });
    expect(await revocation(goodId)).toMatchObject({ status: "processing", attempts: 1 });
  });
});
