/**
 * Balance reconciliation through the real parts: a database of its own (the reconciler sees every
 * gas wallet), a real anvil where gas wallets are topped up from outside and send transactions of
 * their own, and the ledger's own gas booking.
 */
import { createProvider } from "@sweep/rpc";
import { createLogger } from "@sweep/common";
import { createDb, toBigInt, toDecimal, type Db } from "@sweep/db";
import { createTestDatabase, createTestPartner, eventually, startTestChain, type TestChain, type TestPartner } from "@sweep/testkit";
import { queueNames } from "@sweep/messaging";
import { rpcCalls } from "@sweep/metrics";
import { parseEther } from "ethers";
import { settleTransaction } from "../src/batch-purposes";
import { chainReads } from "../src/chain-reads";
import { bookTransactionGas } from "../src/ledger-entries";
import { Reconciler } from "../src/reconciler";
import { commitReconciliation, walletsToReconcile } from "../src/reconcile-store";
import { bookGasBehindReconciliation } from "../src/restored-gas";

const CHAIN_ID = 97;
const logger = createLogger("reconciler-test", "error");
const names = queueNames("reconciler-test");

describe("balance reconciliation", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let chain: TestChain;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    chain = await startTestChain(CHAIN_ID);
  });

  afterAll(async () => {
    await chain?.stop();
    await db?.$disconnect();
    await database?.drop();
  });

  /** Each wake of the outbox relay a reconciler asked for. */
  let wakes = 0;
  /** A ledger instance's reconciler of the chain (a new one is a restart); every round a full pass unless `fullPassMs` says otherwise. */
  const reconciler = (intervalMs = 50, fullPassMs = 0) =>
    new Reconciler({
      db,
      environment: "testnet",
      chain: chainReads({ chainId: CHAIN_ID, confirmations: 1, provider: chain.provider }),
      intervalMs,
      fullPassMs,
      names,
      outboxWritten: () => wakes++,
      logger,
    });

  const head = () => chain.provider.getBlockNumber();

  /** An outside transfer from anvil's first account; its block. */
  async function transferTo(address: string, wei: bigint): Promise<number> {
    const sent = await (await chain.provider.getSigner(0)).sendTransaction({ to: address, value: wei });
    return (await sent.wait())!.blockNumber;
  }

  /** anvil_setBalance changes the latest state without a block: a block is mined so the change has one. */
  async function setBalanceInNewBlock(address: string, wei: bigint): Promise<number> {
    await chain.setBalance(address, wei);
    await chain.provider.send("evm_mine", []);
    return head();
  }

  /**
   * A transaction of the gas wallet (a 0-value self-transfer, as a gap filler is) mined on anvil and
   * stored as the chain-sender stores it: `broadcast` while the watcher has not seen it final,
   * `confirmed` with its receipt once it has.
   */
  async function sendFromGasWallet(partner: TestPartner, status: "broadcast" | "confirmed") {
    const gasWalletId = (await db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).id;
    const sent = await partner.signer.connect(chain.provider).sendTransaction({ to: partner.gasWallet, value: 0n });
    const receipt = (await sent.wait())!;
    const row = await db.chainTransaction.create({
      data: {
        chainId: CHAIN_ID,
        gasWalletId,
        nonce: BigInt(sent.nonce),
        hash: sent.hash,
        rawTx: "0x02",
        status: "broadcast",
        gasLimit: sent.gasLimit,
        maxFeePerGas: toDecimal(sent.maxFeePerGas!),
        maxPriorityFeePerGas: toDecimal(sent.maxPriorityFeePerGas!),
        broadcastAt: new Date(),
      },
    });
    const confirm = () =>
      db.chainTransaction.update({
        where: { id: row.id },
        data: { status: "confirmed", gasUsed: receipt.gasUsed, effectiveGasPrice: toDecimal(receipt.gasPrice), blockNumber: BigInt(receipt.blockNumber), succeeded: true, minedAt: new Date() },
      });
    if (status === "confirmed") await confirm();
    const book = () =>
      db.$transaction((tx) => bookTransactionGas(tx, { partnerId: partner.partnerId, chainId: CHAIN_ID, hash: sent.hash, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.gasPrice, l1Fee: 0n }));
    return { hash: sent.hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed, gasPrice: receipt.gasPrice, gas: receipt.gasUsed * receipt.gasPrice, confirm, book };
  }

  const topups = async (partner: TestPartner) =>
    (await db.ledgerEntry.findMany({ where: { partnerId: partner.partnerId, chainId: CHAIN_ID, kind: "topup" }, orderBy: { id: "asc" } })).map((e) => ({
      amount: toBigInt(e.amount),
      note: e.note,
      txHash: e.txHash,
      dedupeKey: e.dedupeKey,
    }));

  async function state(partner: TestPartner) {
    const row = await db.gasWalletChainState.findFirst({ where: { gasWallet: { partnerId: partner.partnerId }, chainId: CHAIN_ID } });
    return row && { block: row.reconciledBlock === null ? null : Number(row.reconciledBlock), balance: row.reconciledBalance === null ? null : toBigInt(row.reconciledBalance) };
  }

  /** The invariant, once reconciled up to the head: the chain balance is the sum of the gas wallet's chain-moving entries. */
  async function expectReconciledToHead(partner: TestPartner): Promise<void> {
    const [latest, balance] = await Promise.all([head(), chain.provider.getBalance(partner.gasWallet)]);
    const sum = await db.ledgerEntry.aggregate({ where: { partnerId: partner.partnerId, chainId: CHAIN_ID, kind: { in: ["gas", "withdrawal", "topup"] } }, _sum: { amount: true } });
    expect({ state: await state(partner), entries: toBigInt(sum._sum.amount ?? toDecimal(0n)) }).toEqual({ state: { block: latest, balance }, entries: balance });
  }

  it("books an outside top-up as one topup entry naming the blocks it covers, and nothing more while nothing changes", async () => {
    const partner = await createTestPartner(db);
    const block = await transferTo(partner.gasWallet, parseEther("1"));
    await reconciler().runOnce();
    await reconciler().runOnce();

    expect(await topups(partner)).toEqual([{ amount: parseEther("1"), note: `blocks 0-${block}`, txHash: null, dedupeKey: `topup:${CHAIN_ID}:${partner.gasWallet}:${block}` }]);
    await expectReconciledToHead(partner);
  });

  it("books two top-ups of two rounds as two entries that add up to the balance", async () => {
    const partner = await createTestPartner(db);
    const instance = reconciler();
    const first = await transferTo(partner.gasWallet, parseEther("1"));
    await instance.runOnce();
    const second = await setBalanceInNewBlock(partner.gasWallet, parseEther("1.25"));
    await instance.runOnce();

    expect(await topups(partner)).toEqual([
      expect.objectContaining({ amount: parseEther("1"), note: `blocks 0-${first}` }),
      expect.objectContaining({ amount: parseEther("0.25"), note: `blocks ${first + 1}-${second}` }),
    ]);
    await expectReconciledToHead(partner);
  });

  it("explains a transaction of the gas wallet by its gas entry, booked between rounds", async () => {
    const partner = await createTestPartner(db);
    const instance = reconciler();
    const funded = await transferTo(partner.gasWallet, parseEther("1"));
    await instance.runOnce();
    const sent = await sendFromGasWallet(partner, "confirmed");
    await instance.runOnce();
    // mined, confirmed by the watcher, its gas not booked: the block stays unexplained
    expect(await state(partner)).toEqual({ block: funded, balance: parseEther("1") });

    await sent.book();
    await instance.runOnce();

    expect(sent.gas).toBeGreaterThan(0n);
    expect(await topups(partner)).toEqual([expect.objectContaining({ amount: parseEther("1"), note: `blocks 0-${funded}` })]);
    expect(await chain.provider.getBalance(partner.gasWallet)).toBe(parseEther("1") - sent.gas);
    await expectReconciledToHead(partner);
  });

  it("waits for a mined transaction of ours the ledger has not booked, and reconciles up to the block before it once its block is known", async () => {
    const partner = await createTestPartner(db);
    const instance = reconciler();
    const funded = await transferTo(partner.gasWallet, parseEther("1"));
    const sent = await sendFromGasWallet(partner, "broadcast");
    expect(sent.blockNumber).toBe(funded + 1);

    // mined, not yet final for the watcher: which block it is in is not known, so nothing is reconciled
    await instance.runOnce();
    expect({ state: await state(partner), topups: await topups(partner) }).toEqual({ state: null, topups: [] });

    // confirmed by the watcher, not booked: the blocks before it are
    await sent.confirm();
    await instance.runOnce();
    expect(await topups(partner)).toEqual([expect.objectContaining({ amount: parseEther("1"), note: `blocks 0-${funded}` })]);
    expect(await state(partner)).toEqual({ block: funded, balance: parseEther("1") });

    await sent.book();
    await instance.runOnce();
    expect(await topups(partner)).toHaveLength(1);
    await expectReconciledToHead(partner);
  });

  it("explains a given-up transaction's spend as a top-up, and once it is restored books its gas with a top-up reversing that one, once", async () => {
    const partner = await createTestPartner(db);
    const instance = reconciler();
    const funded = await transferTo(partner.gasWallet, parseEther("1"));
    await instance.runOnce();
    const sent = await sendFromGasWallet(partner, "broadcast");
    // Given up (its receipt withheld): not ours to explain, so the reconciliation books its spend as a top-up.
    await db.chainTransaction.updateMany({ where: { hash: sent.hash }, data: { status: "dropped" } });
    await instance.runOnce();
    expect((await topups(partner)).map((t) => t.amount)).toEqual([parseEther("1"), -sent.gas]);
    await expectReconciledToHead(partner);

    // Found mined and restored: the ledger books its gas, and reverses the top-up, once however often the outcome comes.
    await sent.confirm();
    const entry = { partnerId: partner.partnerId, chainId: CHAIN_ID, gasWalletId: (await db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).id, hash: sent.hash, blockNumber: sent.blockNumber, gasUsed: sent.gasUsed, effectiveGasPrice: sent.gasPrice, l1Fee: 0n };
    expect(await db.$transaction((tx) => bookGasBehindReconciliation(tx, entry))).toBe(true);
    expect(await db.$transaction((tx) => bookGasBehindReconciliation(tx, entry))).toBe(false);
    await sent.book();
    await instance.runOnce();
    expect(await db.ledgerEntry.count({ where: { partnerId: partner.partnerId, kind: "gas", txHash: sent.hash } })).toBe(1);
    expect(await topups(partner)).toEqual([
      expect.objectContaining({ amount: parseEther("1"), note: `blocks 0-${funded}` }),
      expect.objectContaining({ amount: -sent.gas }),
      expect.objectContaining({ amount: sent.gas, txHash: sent.hash, dedupeKey: `topup:restored:${sent.hash}` }),
    ]);
    await expectReconciledToHead(partner);
  });

  it.each([
    ["withdrawal", false],
    ["drain", true],
  ])("explains a given-up %s's value and gas as a top-up, and once it is restored books its entries with a top-up reversing that one, once", async (_name, drain) => {
    const partner = await createTestPartner(db);
    const instance = reconciler();
    await transferTo(partner.gasWallet, parseEther("1"));
    await instance.runOnce();
    // Sent as the chain-sender sends a withdrawal batch (a drain is one with drainTo), its signed transaction stored.
    const gasWalletId = (await db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).id;
    const to = (await chain.provider.getSigner(1)).address;
    const batch = await db.batch.create({ data: { chainId: CHAIN_ID, gasWalletId, purpose: "withdrawal", status: "sent", drainTo: drain ? to : null } });
    const signer = partner.signer.connect(chain.provider);
    const rawTx = await signer.signTransaction(await signer.populateTransaction({ to, value: parseEther("0.25") }));
    const sent = await chain.provider.broadcastTransaction(rawTx);
    const receipt = (await sent.wait())!;
    const row = await db.chainTransaction.create({
      data: { chainId: CHAIN_ID, gasWalletId, batchId: batch.id, nonce: BigInt(sent.nonce), hash: sent.hash, rawTx, status: "broadcast", gasLimit: sent.gasLimit, maxFeePerGas: toDecimal(sent.maxFeePerGas!), maxPriorityFeePerGas: toDecimal(sent.maxPriorityFeePerGas!), broadcastAt: new Date() },
    });
    const spent = parseEther("0.25") + receipt.gasUsed * receipt.gasPrice;
    // Given up: the reconciliation books its value and gas as a top-up.
    await db.chainTransaction.update({ where: { id: row.id }, data: { status: "dropped" } });
    await instance.runOnce();
    expect((await topups(partner)).map((t) => t.amount)).toEqual([parseEther("1"), -spent]);

    // Found mined and restored: its settlement books its entries and reverses the top-up, once however often the outcome comes.
    await db.chainTransaction.update({
      where: { id: row.id },
      data: { status: "confirmed", gasUsed: receipt.gasUsed, effectiveGasPrice: toDecimal(receipt.gasPrice), blockNumber: BigInt(receipt.blockNumber), succeeded: true, minedAt: new Date() },
    });
    const deps = { db, names, tariffs: new Map(), hasCode: async () => false, maxAttempts: 5, now: () => new Date(), outboxWritten: () => {} };
    await settleTransaction(deps, { chainId: CHAIN_ID, transactionId: row.id }, logger);
    await settleTransaction(deps, { chainId: CHAIN_ID, transactionId: row.id }, logger);
    await instance.runOnce();
    expect((await topups(partner)).filter((t) => t.dedupeKey === `topup:restored:${sent.hash}`)).toEqual([expect.objectContaining({ amount: spent, txHash: sent.hash })]);
    await expectReconciledToHead(partner);
  });

  it("books a transaction's gas as usual when its block was not reconciled before it was booked", async () => {
    const partner = await createTestPartner(db);
    await transferTo(partner.gasWallet, parseEther("1"));
    const sent = await sendFromGasWallet(partner, "confirmed");
    const entry = { partnerId: partner.partnerId, chainId: CHAIN_ID, gasWalletId: (await db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).id, hash: sent.hash, blockNumber: sent.blockNumber, gasUsed: sent.gasUsed, effectiveGasPrice: sent.gasPrice, l1Fee: 0n };
    expect(await db.$transaction((tx) => bookGasBehindReconciliation(tx, entry))).toBe(false);
    expect(await db.ledgerEntry.count({ where: { partnerId: partner.partnerId, txHash: sent.hash } })).toBe(0);
    // Its settlement books it as usual (the wallets the later stories read stay explained).
    await sent.book();
  });

  it("counts nothing twice across a restart, nor when two instances reconcile at once, and misses no top-up made while it was down", async () => {
    const partner = await createTestPartner(db);
    const first = await transferTo(partner.gasWallet, parseEther("1"));
    await reconciler().runOnce();

    // a restart: a new instance over the same database
    await reconciler().runOnce();
    expect(await topups(partner)).toHaveLength(1);

    // down while topped up, then two instances at once: one entry for the blocks since
    const second = await transferTo(partner.gasWallet, parseEther("2"));
    await Promise.all([reconciler().runOnce(), reconciler().runOnce(), reconciler().runOnce()]);
    expect(await topups(partner)).toEqual([
      expect.objectContaining({ amount: parseEther("1"), note: `blocks 0-${first}` }),
      expect.objectContaining({ amount: parseEther("2"), note: `blocks ${first + 1}-${second}` }),
    ]);
    await expectReconciledToHead(partner);
  });

  /** The JSON-RPC calls of `method` this process has sent to the chain so far. */
  async function calls(method: string): Promise<number> {
    return (await rpcCalls.get()).values.filter((v) => v.labels.method === method && String(v.labels.chain_id) === String(CHAIN_ID)).reduce((sum, v) => sum + v.value, 0);
  }

  it("between full passes reads only the wallets with a transaction of ours since their reconciliation, none in a quiet round, and books an idle wallet's top-up at the next full pass", async () => {
    const [idle, active] = [await createTestPartner(db), await createTestPartner(db)];
    await transferTo(idle.gasWallet, parseEther("1"));
    await transferTo(active.gasWallet, parseEther("1"));
    const instance = reconciler(50, 3_600_000);
    // A process's first round is a full pass: every wallet is read.
    await instance.runOnce();
    await expectReconciledToHead(idle);
    await expectReconciledToHead(active);
    const idleState = await state(idle);

    // An outside top-up of one (we do not see it), a transaction of ours from the other.
    await transferTo(idle.gasWallet, parseEther("2"));
    const sent = await sendFromGasWallet(active, "confirmed");
    await sent.book();
    const balanceReads = await calls("eth_getBalance");
    await instance.runOnce();
    expect(await calls("eth_getBalance")).toBe(balanceReads + 1);
    expect(await state(idle)).toEqual(idleState);
    await expectReconciledToHead(active);

    // Nothing of ours since: the round asks the node nothing, not even its head.
    const quiet = () => Promise.all(["eth_blockNumber", "eth_getTransactionCount", "eth_getBalance"].map(calls));
    const before = await quiet();
    await instance.runOnce();
    expect(await quiet()).toEqual(before);

    // The next full pass (here a restarted ledger's first round) books the top-up.
    await reconciler(50, 3_600_000).runOnce();
    expect((await topups(idle)).map((t) => t.amount)).toEqual([parseEther("1"), parseEther("2")]);
    await expectReconciledToHead(idle);
  });

  it("books nothing from a state another instance has moved past since it was read", async () => {
    const partner = await createTestPartner(db);
    await transferTo(partner.gasWallet, parseEther("1"));
    const stale = (await walletsToReconcile(db, "testnet", CHAIN_ID)).find((w) => w.partnerId === partner.partnerId)!;
    await reconciler().runOnce();
    const later = await transferTo(partner.gasWallet, parseEther("2"));

    expect(await commitReconciliation(db, names, stale, CHAIN_ID, later, await chain.provider.getBalance(partner.gasWallet, later))).toBeNull();
    expect((await topups(partner)).map((t) => t.amount)).toEqual([parseEther("1")]);
  });

  it("keeps the chain-sender's next nonce when it writes its own columns", async () => {
    const partner = await createTestPartner(db);
    const { id } = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } });
    await db.gasWalletChainState.create({ data: { gasWalletId: id, chainId: CHAIN_ID, nextNonce: 7n } });
    await transferTo(partner.gasWallet, parseEther("1"));
    await reconciler().runOnce();

    expect((await db.gasWalletChainState.findUniqueOrThrow({ where: { gasWalletId_chainId: { gasWalletId: id, chainId: CHAIN_ID } } })).nextNonce).toBe(7n);
    await expectReconciledToHead(partner);
  });

  it("leaves everything as it was when the node does not answer, and picks up top-ups on its own when running", async () => {
    const partner = await createTestPartner(db);
    await transferTo(partner.gasWallet, parseEther("1"));
    const silent = createProvider("http://127.0.0.1:1", CHAIN_ID);
    try {
      const down = new Reconciler({ db, environment: "testnet", chain: chainReads({ chainId: CHAIN_ID, confirmations: 1, provider: silent }), intervalMs: 50, fullPassMs: 0, names, logger });
      await expect(down.runOnce()).rejects.toThrow();
    } finally {
      silent.destroy();
    }
    expect({ state: await state(partner), topups: await topups(partner) }).toEqual({ state: null, topups: [] });

    const running = reconciler();
    running.start();
    try {
      await eventually("the top-up to be booked", async () => ((await topups(partner)).length === 1 ? true : undefined), 10_000, 50);
      const block = await setBalanceInNewBlock(partner.gasWallet, parseEther("3"));
      await eventually("the second top-up to be booked", async () => ((await state(partner))?.block === block ? true : undefined), 10_000, 50);
    } finally {
      await running.stop();
    }
    expect((await topups(partner)).map((t) => t.amount)).toEqual([parseEther("1"), parseEther("2")]);
    await expectReconciledToHead(partner);
  });
  it("records balance.low once per fall below the alert's threshold, re-arms when the balance is back, and fires again on the next fall", async () => {
    const partner = await createTestPartner(db);
    const threshold = parseEther("0.5");
    await db.lowBalanceAlert.create({ data: { partnerId: partner.partnerId, chainId: CHAIN_ID, threshold: toDecimal(threshold) } });
    const alert = async () => (await db.lowBalanceAlert.findUniqueOrThrow({ where: { partnerId_chainId: { partnerId: partner.partnerId, chainId: CHAIN_ID } } })).low;
    const events = () => db.event.findMany({ where: { partnerId: partner.partnerId }, orderBy: { createdAt: "asc" } });
    const lowEvent = (balance: bigint) =>
      expect.objectContaining({
        type: "balance.low",
        subjectId: null,
        dedupeKey: null,
        payload: { chain_id: CHAIN_ID, gas_wallet: partner.gasWallet, balance: balance.toString(), threshold: threshold.toString() },
      });
    const wakesBefore = wakes;

    await transferTo(partner.gasWallet, parseEther("1"));
    await reconciler().runOnce();
    expect({ low: await alert(), events: await events() }).toEqual({ low: false, events: [] });

    // The fall, read by three instances at once and then by later rounds and a restart while it stays low: one event.
    await setBalanceInNewBlock(partner.gasWallet, parseEther("0.4"));
    await Promise.all([reconciler().runOnce(), reconciler().runOnce(), reconciler().runOnce()]);
    const instance = reconciler();
    await instance.runOnce();
    await setBalanceInNewBlock(partner.gasWallet, parseEther("0.3"));
    await instance.runOnce();
    await reconciler().runOnce();
    const fired = await events();
    expect({ low: await alert(), events: fired, wakes: wakes - wakesBefore }).toEqual({ low: true, events: [lowEvent(parseEther("0.4"))], wakes: 1 });
    expect(await db.outboxMessage.count({ where: { type: "event.recorded", payload: { path: ["eventId"], equals: fired[0]!.id } } })).toBe(1);

    // Back at the threshold: re-armed, nothing sent.
    await setBalanceInNewBlock(partner.gasWallet, threshold);
    await instance.runOnce();
    expect({ low: await alert(), events: (await events()).length }).toEqual({ low: false, events: 1 });

    await setBalanceInNewBlock(partner.gasWallet, parseEther("0.1"));
    await instance.runOnce();
    expect({ low: await alert(), events: await events(), wakes: wakes - wakesBefore }).toEqual({ low: true, events: [lowEvent(parseEther("0.4")), lowEvent(parseEther("0.1"))], wakes: 2 });
    await expectReconciledToHead(partner);
  });

  it("leaves a partner without an alert on the chain, or with one on another chain, without events", async () => {
    const partner = await createTestPartner(db);
    await db.lowBalanceAlert.create({ data: { partnerId: partner.partnerId, chainId: 11155111, threshold: toDecimal(parseEther("5")) } });
    await transferTo(partner.gasWallet, parseEther("1"));
    await reconciler().runOnce();
    expect(await db.event.count({ where: { partnerId: partner.partnerId } })).toBe(0);
    expect((await db.lowBalanceAlert.findFirstOrThrow({ where: { partnerId: partner.partnerId } })).low).toBe(false);
  });
});
