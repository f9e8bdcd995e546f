/**
 * One batch round against a real anvil (devnet USDT, a delegate deployed through the factory)
 * and the real database: the checks before sending, the kinds, and the claim.
 */
import { createDb, toBigInt, type Db, type Tx } from "@sweep/db";
import { queueNames, type QueueNames } from "@sweep/messaging";
import { startTestChain, type TestChain } from "@sweep/testkit";
import { Wallet, parseEther, type BaseWallet } from "ethers";
import { claimBatch, lockHotWallet } from "../src/batch-claim";
import { createWorkRound } from "../src/work-round";
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { findDueHotWallets, loadDueWork, untilSent } from "../src/due-work";
import { activeHotWallet, delegateOnChain, feeCeilings, holdLock, insertRevocation, insertSweep, logger, revocationAuthorization, storedAuthorization, tokenOnlyAddress, uniquePrefix, waiterFor, whileLockHeld, type HotWalletFixture } from "./support";

const settings = { gasMarginBps: 8_000, maxSweeps: 1_000, maxSent: 2, reads: { batchSize: 50, concurrency: 8 } };

describe("batch round", () => {
  let chain: TestChain;
  let db: Db;
  let names: QueueNames;
  let round: ReturnType<typeof createWorkRound<"sweep">>;
  let hotWallet: HotWalletFixture;
  const providers: ChainProvider[] = [];
  const provider = (rpcUrl: string) => {
    const p = createProvider(rpcUrl, 97, 2_000);
    providers.push(p);
    return p;
  };

  beforeAll(async () => {
    chain = await startTestChain(97);
    db = createDb(process.env.DATABASE_URL!);
    names = queueNames(uniquePrefix());
    round = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings, logger });
  });
  afterAll(async () => {
    providers.forEach((p) => p.destroy());
    await db.$disconnect();
    await chain.stop();
  });
  beforeEach(async () => {
    hotWallet = await activeHotWallet(db, chain);
  });

  const authorize = (wallet: BaseWallet, nonce = 0) => storedAuthorization(wallet, hotWallet.delegate, nonce, 97);
  const sweep = (id: string) => db.sweep.findUniqueOrThrow({ where: { id } });
  const batchOf = (batchId: string) => db.batch.findUniqueOrThrow({ where: { id: batchId }, include: { items: { orderBy: { position: "asc" } } } });
  const batchesOf = () => db.batch.findMany({ where: { hotWalletId: hotWallet.hotWalletId } });

  it("rejects each failed check for good, with its sweep.rejected event, and batches the rest", async () => {
    const unupgraded = await tokenOnlyAddress(chain);
    const stale = await tokenOnlyAddress(chain);
    const short = await tokenOnlyAddress(chain, 10n);
    const empty = Wallet.createRandom();
    const good = await tokenOnlyAddress(chain);
    const ids = {
      not_upgraded: await insertSweep(db, chain, hotWallet, { account: unupgraded.address }),
      stale_authorization: await insertSweep(db, chain, hotWallet, { account: stale.address, authorization: authorize(stale, 3) }),
      would_fail: await insertSweep(db, chain, hotWallet, { account: short.address, amount: 11n, authorization: authorize(short) }),
      nothing_to_sweep: await insertSweep(db, chain, hotWallet, { account: empty.address, authorization: authorize(empty) }),
      good: await insertSweep(db, chain, hotWallet, { account: good.address, authorization: authorize(good) }),
    };

    // Requested after the sweep of its account, it waits for it; rejected, that sweep no longer holds it back.
    const waiting = await insertRevocation(db, chain, hotWallet.partnerId, { account: stale.address, authorization: revocationAuthorization(stale, 0, 97) });

    const result = await round(hotWallet.hotWalletId);

    expect(result).toMatchObject({ outcome: "planned" });
    const revocationWakes = await db.outboxMessage.findMany({ where: { type: "revocation.queued", payload: { path: ["revocationId"], equals: waiting } } });
    expect(revocationWakes.map((m) => m.payload)).toEqual([{ revocationId: waiting, chainId: 97 }]);
    for (const reason of ["not_upgraded", "stale_authorization", "would_fail", "nothing_to_sweep"] as const) {
      expect(await sweep(ids[reason])).toMatchObject({ status: "rejected", reason, batchId: null, attempts: 0 });
      const events = await db.event.findMany({ where: { subjectId: ids[reason] } });
      expect(events).toEqual([expect.objectContaining({ type: "sweep.rejected", partnerId: hotWallet.partnerId, dedupeKey: `sweep.rejected:${ids[reason]}` })]);
      expect(await db.outboxMessage.count({ where: { type: "event.recorded", payload: { path: ["eventId"], equals: events[0]!.id } } })).toBe(1);
    }
    expect(await sweep(ids.good)).toMatchObject({ status: "processing", attempts: 1 });

    // A second round finds nothing new to reject: the rejections are final and recorded once.
    await round(hotWallet.hotWalletId);
    expect(await db.event.count({ where: { subjectId: { in: Object.values(ids) } } })).toBe(4);
  });

  it("holds the sweeps queued, attempts untouched, with waiting_for_gas_price while the base fee is above the partner's ceiling, and claims them once it is not", async () => {
    const gwei = 1_000_000_000n;
    const deposit = await tokenOnlyAddress(chain);
    const id = await insertSweep(db, chain, hotWallet, { account: deposit.address, authorization: authorize(deposit) });
    await chain.provider.send("anvil_setNextBlockBaseFeePerGas", ["0x" + (10n * gwei).toString(16)]);
    await chain.provider.send("evm_mine", []);
    await db.partnerFeeCeiling.create({ data: { partnerId: hotWallet.partnerId, chainId: 97, maxFeePerGas: (5n * gwei).toString() } });

    expect(await round(hotWallet.hotWalletId)).toEqual({ outcome: "waiting_for_gas_price" });
    expect(await round(hotWallet.hotWalletId)).toEqual({ outcome: "waiting_for_gas_price" });
    expect(await sweep(id)).toMatchObject({ status: "queued", reason: "waiting_for_gas_price", attempts: 0, batchId: null, nextAttemptAt: null });
    expect(await batchesOf()).toEqual([]);

    // The chain's own ceiling (20 gwei on 97) leaves room for the base fee and the whole tip ceiling: claimed, the reason gone.
    await db.partnerFeeCeiling.delete({ where: { partnerId_chainId: { partnerId: hotWallet.partnerId, chainId: 97 } } });
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect(await sweep(id)).toMatchObject({ status: "processing", reason: null, attempts: 1 });
  });

  it("claims with the kind from each address's state before the batch: first_new, first, repeat", async () => {
    const tokenOnly = await tokenOnlyAddress(chain);
    const holdingNative = await tokenOnlyAddress(chain);
    await chain.setBalance(holdingNative.address, parseEther("0.01"));
    const delegated = await tokenOnlyAddress(chain);
    await delegateOnChain(chain, delegated, hotWallet.delegate);
    const nativeDeposit = Wallet.createRandom();
    await chain.setBalance(nativeDeposit.address, parseEther("0.5"));
    const ids = [
      await insertSweep(db, chain, hotWallet, { account: tokenOnly.address, authorization: authorize(tokenOnly) }),
      await insertSweep(db, chain, hotWallet, { account: holdingNative.address, authorization: authorize(holdingNative) }),
      // Sent although the address is delegated already (its nonce moved on): not carried.
      await insertSweep(db, chain, hotWallet, { account: delegated.address, authorization: authorize(delegated, 0) }),
      await insertSweep(db, chain, hotWallet, { account: nativeDeposit.address, tokenAddress: null, amount: parseEther("0.1"), authorization: authorize(nativeDeposit) }),
    ];

    const result = await round(hotWallet.hotWalletId);

    if (result.outcome !== "planned" || result.batchId === null) throw new Error(`no batch: ${JSON.stringify(result)}`);
    const batch = await batchOf(result.batchId);
    const gasWallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: hotWallet.partnerId } });
    expect(batch).toMatchObject({ purpose: "sweep", status: "open", chainId: 97, hotWalletId: hotWallet.hotWalletId, gasWalletId: gasWallet.id });
    expect(batch.items.map((i) => [i.sweepId, i.position, i.kind, i.withAuthorization])).toEqual([
      [ids[0], 0, "first_new", true],
      [ids[1], 1, "first", true],
      [ids[2], 2, "repeat", false],
      [ids[3], 3, "first", true],
    ]);
    for (const id of ids) expect(await sweep(id)).toMatchObject({ status: "processing", batchId: batch.id, attempts: 1, reason: null });
    const ready = await db.outboxMessage.findMany({ where: { type: "batch.ready", payload: { path: ["batchId"], equals: batch.id } } });
    expect(ready).toEqual([expect.objectContaining({ exchange: names.workExchange, routingKey: names.sender(97), payload: { batchId: batch.id, chainId: 97 } })]);
  });

  it("puts 50 sweeps queued together in one batch of 50 items, in arrival order", async () => {
    const deposits = await Promise.all(Array.from({ length: 50 }, () => Wallet.createRandom()));
    for (const d of deposits) await chain.mintUsdt(d.address, 5n);
    const ids = await Promise.all(deposits.map((d) => insertSweep(db, chain, hotWallet, { account: d.address, authorization: authorize(d) })));
    const inOrder = (await db.sweep.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" }, select: { id: true } })).map((s) => s.id);

    const result = await round(hotWallet.hotWalletId);

    if (result.outcome !== "planned" || result.batchId === null) throw new Error("no batch");
    const batch = await batchOf(result.batchId);
    expect(batch.items.map((i) => i.sweepId)).toEqual(inOrder);
    expect(batch.items.map((i) => i.position)).toEqual([...Array(50).keys()]);
    expect(batch.items.every((i) => i.withAuthorization && i.kind === "first_new")).toBe(true);
    expect(await batchesOf()).toHaveLength(1);
  });

  it("creates nothing while a batch of the hot wallet is being prepared; the new sweep waits queued", async () => {
    const first = await tokenOnlyAddress(chain);
    await insertSweep(db, chain, hotWallet, { account: first.address, authorization: authorize(first) });
    const claimed = await round(hotWallet.hotWalletId);
    if (claimed.outcome !== "planned" || claimed.batchId === null) throw new Error("no batch");
    const later = await tokenOnlyAddress(chain);
    const laterId = await insertSweep(db, chain, hotWallet, { account: later.address, authorization: authorize(later) });

    expect(await round(hotWallet.hotWalletId)).toEqual({ outcome: "in_flight" });
    expect(await sweep(laterId)).toMatchObject({ status: "queued", attempts: 0 });
    expect(await batchesOf()).toHaveLength(1);

    // Once sent, the next batch need not wait for it to be mined.
    await db.batch.update({ where: { id: claimed.batchId }, data: { status: "sent" } });
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect(await sweep(laterId)).toMatchObject({ status: "processing" });
  });

  it("reads ahead while a batch is being prepared and claims once it is sent (BATCH_READ_AHEAD_MS)", async () => {
    const readingAhead = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings: { ...settings, readAheadMs: 600_000 }, logger });
    const first = await tokenOnlyAddress(chain);
    await insertSweep(db, chain, hotWallet, { account: first.address, authorization: authorize(first) });
    const claimed = await readingAhead(hotWallet.hotWalletId);
    if (claimed.outcome !== "planned" || claimed.batchId === null) throw new Error("no batch");
    const later = await tokenOnlyAddress(chain);
    const laterId = await insertSweep(db, chain, hotWallet, { account: later.address, authorization: authorize(later) });

    // A round that finds the batch being prepared reads ahead of it, then waits for it to be sent.
    const due = await loadDueWork(db, { id: hotWallet.hotWalletId, partnerId: hotWallet.partnerId }, new Date(), settings.maxSweeps, settings.maxSent, 600_000);
    expect(due).toMatchObject({ outcome: "ready", sweeps: [{ id: laterId, withAuthorization: true }], afterSentMs: expect.any(Number) });
    let waited = false;
    const waiting = untilSent(db, hotWallet.hotWalletId, 600_000).then(() => (waited = true));
    const next = readingAhead(hotWallet.hotWalletId);
    await db.sweep.findMany({ where: { hotWalletId: hotWallet.hotWalletId } });
    expect(waited).toBe(false);
    expect(await batchesOf()).toHaveLength(1);

    await db.batch.update({ where: { id: claimed.batchId }, data: { status: "sent" } });
    await waiting;
    const result = await next;
    if (result.outcome !== "planned" || result.batchId === null) throw new Error("no batch once sent");
    expect((await batchOf(result.batchId)).items.map((i) => i.sweepId)).toEqual([laterId]);
  });

  it("does not read ahead when the batch being prepared, once sent, would fill BATCH_MAX_SENT, nor claim while it is not sent", async () => {
    const readingAhead = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings: { ...settings, readAheadMs: 600_000 }, logger });
    const claimOne = async () => {
      const deposit = await tokenOnlyAddress(chain);
      const id = await insertSweep(db, chain, hotWallet, { account: deposit.address, authorization: authorize(deposit) });
      const result = await readingAhead(hotWallet.hotWalletId);
      if (result.outcome !== "planned" || result.batchId === null) throw new Error("no batch");
      return { id, batchId: result.batchId };
    };
    const sent = await claimOne();
    await db.batch.update({ where: { id: sent.batchId }, data: { status: "sent" } });
    await claimOne();
    const later = await tokenOnlyAddress(chain);
    const laterId = await insertSweep(db, chain, hotWallet, { account: later.address, authorization: authorize(later) });
    expect(await readingAhead(hotWallet.hotWalletId)).toEqual({ outcome: "in_flight" });
    expect(await sweep(laterId)).toMatchObject({ status: "queued", attempts: 0 });

    // A read-ahead whose wait ends before the batch is sent claims nothing either.
    const brief = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings: { ...settings, maxSent: 4, readAheadMs: 1 }, logger });
    expect(await brief(hotWallet.hotWalletId)).toEqual({ outcome: "in_flight" });
    expect(await sweep(laterId)).toMatchObject({ status: "queued", attempts: 0 });
  });

  it("claims past sent batches up to BATCH_MAX_SENT, then waits for one to settle", async () => {
    const claimOne = async () => {
      const deposit = await tokenOnlyAddress(chain);
      const id = await insertSweep(db, chain, hotWallet, { account: deposit.address, authorization: authorize(deposit) });
      return { id, result: await round(hotWallet.hotWalletId) };
    };
    for (let i = 0; i < settings.maxSent; i++) {
      const { result } = await claimOne();
      if (result.outcome !== "planned" || result.batchId === null) throw new Error("no batch");
      await db.batch.update({ where: { id: result.batchId }, data: { status: "sent" } });
    }
    const waiting = await claimOne();
    expect(waiting.result).toEqual({ outcome: "in_flight" });
    expect(await sweep(waiting.id)).toMatchObject({ status: "queued" });

    const [oldest] = await db.batch.findMany({ where: { hotWalletId: hotWallet.hotWalletId }, orderBy: { createdAt: "asc" } });
    await db.batch.update({ where: { id: oldest!.id }, data: { status: "confirmed" } });
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: expect.any(String) });
    expect(await sweep(waiting.id)).toMatchObject({ status: "processing" });
  });

  it("keeps the next sweep of an address waiting while its sweep in a sent batch is processing, and batches the others", async () => {
    const again = await tokenOnlyAddress(chain);
    await insertSweep(db, chain, hotWallet, { account: again.address, authorization: authorize(again) });
    const first = await round(hotWallet.hotWalletId);
    if (first.outcome !== "planned" || first.batchId === null) throw new Error("no batch");
    await db.batch.update({ where: { id: first.batchId }, data: { status: "sent" } });

    const repeat = await insertSweep(db, chain, hotWallet, { account: again.address });
    const other = await tokenOnlyAddress(chain);
    const otherId = await insertSweep(db, chain, hotWallet, { account: other.address, authorization: authorize(other) });
    const second = await round(hotWallet.hotWalletId);
    if (second.outcome !== "planned" || second.batchId === null) throw new Error("no batch");
    expect((await batchOf(second.batchId)).items.map((i) => i.sweepId)).toEqual([otherId]);
    expect(await sweep(repeat)).toMatchObject({ status: "queued", attempts: 0, reason: null });

    // The first settles (here without reaching the chain): the address's next sweep is decided now,
    // from the chain as it is: not delegated, and no authorization of its own.
    await db.batch.update({ where: { id: second.batchId }, data: { status: "sent" } });
    await db.batch.update({ where: { id: first.batchId }, data: { status: "confirmed" } });
    await db.sweep.updateMany({ where: { batchId: first.batchId }, data: { status: "failed" } });
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned" });
    expect(await sweep(repeat)).toMatchObject({ status: "rejected", reason: "not_upgraded" });
  });

  it("gives one batch to two replicas claiming one hot wallet at once", async () => {
    const deposits = [await tokenOnlyAddress(chain), await tokenOnlyAddress(chain), await tokenOnlyAddress(chain)];
    for (const d of deposits) await insertSweep(db, chain, hotWallet, { account: d.address, authorization: authorize(d) });
    const otherDb = createDb(process.env.DATABASE_URL!);
    try {
      const replica = createWorkRound("sweep", { db: otherDb, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings, logger });
      const results = await Promise.all([round(hotWallet.hotWalletId), replica(hotWallet.hotWalletId), round(hotWallet.hotWalletId), replica(hotWallet.hotWalletId)]);
      expect(results.filter((r) => r.outcome === "planned" && r.batchId !== null)).toHaveLength(1);
      const batches = await batchesOf();
      expect(batches).toHaveLength(1);
      expect(await db.batchItem.count({ where: { batchId: batches[0]!.id } })).toBe(3);
    } finally {
      await otherDb.$disconnect();
    }
  });

  it("lets one hot wallet of the chain at a time take an address: another's claim waits for it, and its sweep for that batch to settle", async () => {
    // Delegated to this hot wallet's delegate (nonce 1 now); the other hot wallet, of another
    // partner, brings an authorization of its own delegate.
    const deposit = await tokenOnlyAddress(chain);
    await delegateOnChain(chain, deposit, hotWallet.delegate);
    const other = await activeHotWallet(db, chain);
    const here = await insertSweep(db, chain, hotWallet, { account: deposit.address });
    const there = await insertSweep(db, chain, other, { account: deposit.address, authorization: storedAuthorization(deposit, other.delegate, 1, 97) });
    const otherDb = createDb(process.env.DATABASE_URL!);
    // The first claim stops at its batch's insert (its foreign key waits for the gas wallet's row), its sweeps locked.
    const gasWalletRow = await holdLock(db, (tx) => tx.$executeRaw`SELECT 1 FROM gas_wallets WHERE partner_id = ${hotWallet.partnerId}::uuid FOR UPDATE`);
    const replica = createWorkRound("sweep", { db: otherDb, names, providers: new Map([[97, provider(chain.rpcUrl)]]), feeCeilings, settings, logger });
    let firstEnded = false;
    const first = round(hotWallet.hotWalletId).finally(() => (firstEnded = true));
    try {
      const firstClaim = await waiterFor(db, gasWalletRow.pid, () => firstEnded);
      expect(firstClaim).not.toBeNull();
      let secondEnded = false;
      const second = replica(other.hotWalletId).finally(() => (secondEnded = true));
      // Without a lock across hot wallets, the second would find the first's sweep still queued and take the address too.
      expect(await waiterFor(db, firstClaim!, () => secondEnded)).not.toBeNull();
      await gasWalletRow.release();
      const claimed = await first;
      if (claimed.outcome !== "planned" || claimed.batchId === null) throw new Error("no batch");
      expect(await second).toMatchObject({ outcome: "planned", batchId: null, plan: { items: [], rejections: [] } });
      expect(await sweep(here)).toMatchObject({ status: "processing", batchId: claimed.batchId });
      expect(await sweep(there)).toMatchObject({ status: "queued", attempts: 0, reason: null });

      // Settled (here without reaching the chain: a repeat sweep leaves the delegation and the nonce
      // as they were), the other hot wallet's sweep delegates the address to its own delegate.
      await db.batch.update({ where: { id: claimed.batchId }, data: { status: "confirmed" } });
      await db.sweep.update({ where: { id: here }, data: { status: "swept" } });
      const next = await replica(other.hotWalletId);
      if (next.outcome !== "planned" || next.batchId === null) throw new Error("no batch for the other hot wallet");
      expect((await batchOf(next.batchId)).items.map((i) => [i.sweepId, i.kind, i.withAuthorization])).toEqual([[there, "first", true]]);
    } finally {
      await gasWalletRow.release();
      await first.catch(() => undefined);
      await otherDb.$disconnect();
    }
  });

  it("locks the hot wallet against another claim, never against the API inserting its sweeps", async () => {
    const lock = (tx: Tx) => lockHotWallet(tx, hotWallet.hotWalletId);
    await expect(whileLockHeld(db, lock, lock)).rejects.toThrow(/lock timeout/);
    const inserted = await whileLockHeld(db, lock, (tx) =>
      tx.sweep.create({ data: { partnerId: hotWallet.partnerId, chainId: 97, hotWalletId: hotWallet.hotWalletId, account: Wallet.createRandom().address, token: "USDT", tokenAddress: chain.usdt.address } }),
    );
    expect(inserted.status).toBe("queued");
  });

  it("carries one authorization for two sweeps of the same address in one batch", async () => {
    const deposit = await tokenOnlyAddress(chain, 100n);
    const ids = [
      await insertSweep(db, chain, hotWallet, { account: deposit.address, amount: 30n, authorization: authorize(deposit) }),
      await insertSweep(db, chain, hotWallet, { account: deposit.address, amount: 20n, authorization: authorize(deposit) }),
      await insertSweep(db, chain, hotWallet, { account: deposit.address }),
    ];
    const result = await round(hotWallet.hotWalletId);
    if (result.outcome !== "planned" || result.batchId === null) throw new Error("no batch");
    const batch = await batchOf(result.batchId);
    expect(batch.items.map((i) => [i.sweepId, i.withAuthorization, i.kind])).toEqual([
      [ids[0], true, "first_new"],
      [ids[1], false, "repeat"],
      [ids[2], false, "repeat"],
    ]);
  });

  it("does not reject a sweep without authorization whose address another sweep will delegate", async () => {
    const deposit = await tokenOnlyAddress(chain);
    // The authorizing sweep is pausing before a retry; the other one waits for it.
    await insertSweep(db, chain, hotWallet, { account: deposit.address, authorization: authorize(deposit), nextAttemptAt: new Date(Date.now() + 60_000) });
    const rider = await insertSweep(db, chain, hotWallet, { account: deposit.address, amount: 1n });
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: null, plan: { waiting: [{ sweepId: rider, reason: "awaiting_delegation" }] } });
    expect(await sweep(rider)).toMatchObject({ status: "queued", reason: null });

    // A later sweep of the same address with its authorization: the rider goes right after it.
    const carrier = await insertSweep(db, chain, hotWallet, { account: deposit.address, amount: 2n, authorization: authorize(deposit) });
    const result = await round(hotWallet.hotWalletId);
    if (result.outcome !== "planned" || result.batchId === null) throw new Error("no batch");
    expect((await batchOf(result.batchId)).items.map((i) => [i.sweepId, i.withAuthorization])).toEqual([
      [carrier, true],
      [rider, false],
    ]);
  });

  it("splits a batch that would pass the chain's gas limit; the rest waits for the next batch", async () => {
    const small = await startTestChain(97);
    try {
      const wallet = await activeHotWallet(db, small);
      const deposits = await Promise.all(Array.from({ length: 5 }, () => Wallet.createRandom()));
      for (const d of deposits) await small.mintUsdt(d.address, 5n);
      // 600,000 × 80% leaves 144,000 after the base and guard reserve: two items with authorization.
      await small.provider.send("evm_setBlockGasLimit", ["0x" + (600_000).toString(16)]);
      await small.provider.send("anvil_mine", ["0x1"]);
      expect((await small.provider.getBlock("latest"))!.gasLimit).toBe(600_000n);
      const smallRound = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(small.rpcUrl)]]), feeCeilings, settings, logger });
      const ids: string[] = [];
      for (const d of deposits) ids.push(await insertSweep(db, small, wallet, { account: d.address, authorization: storedAuthorization(d, wallet.delegate, 0, 97) }));

      const first = await smallRound(wallet.hotWalletId);
      if (first.outcome !== "planned" || first.batchId === null) throw new Error("no batch");
      expect((await batchOf(first.batchId)).items.map((i) => i.sweepId)).toEqual(ids.slice(0, 2));
      expect(first.plan.waiting).toEqual(ids.slice(2).map((sweepId) => ({ sweepId, reason: "gas_limit" })));
      expect((await db.sweep.findMany({ where: { id: { in: ids.slice(2) } } })).map((s) => s.status)).toEqual(["queued", "queued", "queued"]);

      await db.batch.update({ where: { id: first.batchId }, data: { status: "confirmed" } });
      const second = await smallRound(wallet.hotWalletId);
      if (second.outcome !== "planned" || second.batchId === null) throw new Error("no second batch");
      expect((await batchOf(second.batchId)).items.map((i) => i.sweepId)).toEqual(ids.slice(2, 4));
    } finally {
      await small.stop();
    }
  });

  it("keeps a batch within the chain's fee cap at the base fee of the block it read; the rest waits for the next batch", async () => {
    const capped = await startTestChain(97);
    try {
      const wallet = await activeHotWallet(db, capped);
      const deposits = Array.from({ length: 4 }, () => Wallet.createRandom());
      for (const d of deposits) await capped.mintUsdt(d.address, 5n);
      // A 1 gwei base fee: the sender offers at least 2 gwei, so a cap of 1.2e15 wei buys 600,000 gas, 480,000 after the
      // margin: the base and guard reserve (336,000) and two items with authorization (60,000 each).
      await capped.provider.send("anvil_setNextBlockBaseFeePerGas", ["0x" + (1_000_000_000).toString(16)]);
      await capped.provider.send("anvil_mine", ["0x1"]);
      const cappedRound = createWorkRound("sweep", { db, names, providers: new Map([[97, provider(capped.rpcUrl)]]), feeCeilings, txFeeCaps: new Map([[97, 1_200_000_000_000_000n]]), settings, logger });
      const ids: string[] = [];
      for (const d of deposits) ids.push(await insertSweep(db, capped, wallet, { account: d.address, authorization: storedAuthorization(d, wallet.delegate, 0, 97) }));

      const first = await cappedRound(wallet.hotWalletId);
      if (first.outcome !== "planned" || first.batchId === null) throw new Error("no batch");
      expect((await batchOf(first.batchId)).items.map((i) => i.sweepId)).toEqual(ids.slice(0, 2));
      expect(first.plan.waiting).toEqual(ids.slice(2).map((sweepId) => ({ sweepId, reason: "gas_limit" })));
    } finally {
      await capped.stop();
    }
  });

  it("leaves sweeps queued when the hot wallet is no longer active", async () => {
    const deposit = await tokenOnlyAddress(chain);
    const id = await insertSweep(db, chain, hotWallet, { account: deposit.address });
    await db.hotWallet.update({ where: { id: hotWallet.hotWalletId }, data: { status: "failed", error: "not_deployed" } });
    expect(await round(hotWallet.hotWalletId)).toEqual({ outcome: "inactive" });
    expect(await sweep(id)).toMatchObject({ status: "queued", reason: null });
  });

  it("rejects nothing when the chain does not answer, and claims once it does", async () => {
    const deposit = await tokenOnlyAddress(chain);
    const id = await insertSweep(db, chain, hotWallet, { account: deposit.address });
    const blind = createWorkRound("sweep", { db, names, providers: new Map([[97, provider("http://127.0.0.1:9")]]), feeCeilings, settings, logger });
    expect(await blind(hotWallet.hotWalletId)).toEqual({ outcome: "chain_unavailable" });
    expect(await sweep(id)).toMatchObject({ status: "queued", reason: null });
    expect(await db.event.count({ where: { subjectId: id } })).toBe(0);
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", plan: { rejections: [{ sweepId: id, reason: "not_upgraded" }] } });
  });

  it("keeps amounts exact and leaves one unit with keep_one_unit", async () => {
    const deposit = await tokenOnlyAddress(chain, 10n ** 30n);
    await delegateOnChain(chain, deposit, hotWallet.delegate);
    const id = await insertSweep(db, chain, hotWallet, { account: deposit.address, amount: 10n ** 30n, keepOneUnit: true });
    const exact = await insertSweep(db, chain, hotWallet, { account: deposit.address, amount: 10n ** 30n - 1n, keepOneUnit: true });
    const result = await round(hotWallet.hotWalletId);
    expect(result).toMatchObject({ outcome: "planned", plan: { rejections: [{ sweepId: id, reason: "would_fail" }], items: [{ sweepId: exact, kind: "repeat" }] } });
    expect(toBigInt((await sweep(exact)).amount!)).toBe(10n ** 30n - 1n);
  });
  it("claims and rejects nothing of a disabled partner, the poll passes it by, and its sweeps go once it is enabled again", async () => {
    const good = await tokenOnlyAddress(chain);
    const unupgraded = await tokenOnlyAddress(chain);
    const goodId = await insertSweep(db, chain, hotWallet, { account: good.address, authorization: authorize(good) });
    const rejectableId = await insertSweep(db, chain, hotWallet, { account: unupgraded.address });
    await db.partner.update({ where: { id: hotWallet.partnerId }, data: { enabled: false } });

    expect(await round(hotWallet.hotWalletId)).toEqual({ outcome: "disabled" });
    // The claim checks again in its own transaction: disabled between the round's load and the claim.
    const emptyView = { accounts: new Map(), tokenBalances: new Map() };
    expect(await claimBatch(db, names, { hotWalletId: hotWallet.hotWalletId, maxSent: 2, chain: emptyView, gasBudget: 10n ** 7n, limit: 100, lastPass: true, market: null })).toEqual({ outcome: "disabled" });
    expect(await findDueHotWallets(db, 97, new Date())).not.toContain(hotWallet.hotWalletId);
    expect((await db.sweep.findMany({ where: { id: { in: [goodId, rejectableId] } } })).map((s) => [s.status, s.reason])).toEqual([
      ["queued", null],
      ["queued", null],
    ]);
    expect({ batches: await batchesOf(), events: await db.event.count({ where: { partnerId: hotWallet.partnerId } }) }).toEqual({ batches: [], events: 0 });

    await db.partner.update({ where: { id: hotWallet.partnerId }, data: { enabled: true } });
    expect(await findDueHotWallets(db, 97, new Date())).toContain(hotWallet.hotWalletId);
    expect(await round(hotWallet.hotWalletId)).toMatchObject({ outcome: "planned", batchId: expect.any(String), plan: { rejections: [{ sweepId: rejectableId, reason: "not_upgraded" }] } });
    expect(await sweep(goodId)).toMatchObject({ status: "processing", attempts: 1 });
  });
});
