/**
 * Withdrawal batches through Postgres, on a database of their own: createWithdrawalBatches looks
 * at every gas wallet of the environment, and the shared test database holds other tests' ones.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createTestDatabase } from "@sweep/testkit";
import { createDb, createWithdrawalBatches, enqueueOutbox, toDecimal, type BatchStatus, type Db, type Environment, type LedgerKind, type OpenWithdrawalBatch } from "../src/index";

const SEPOLIA = 11155111;
const BSC_TESTNET = 97;
const testnet = { environment: "testnet" as Environment, chainIds: [SEPOLIA, BSC_TESTNET] };
/** As @sweep/lifecycle's openAnnouncedBatch opens one (this package cannot depend on it): open, with its batch.ready. */
const openBatch: OpenWithdrawalBatch = async (tx, batch) => {
  const { id: batchId } = await tx.batch.create({ data: { ...batch, status: "open" }, select: { id: true } });
  await enqueueOutbox(tx, { exchange: "test.sweep.work", routingKey: `test.sender.${batch.chainId}`, type: "batch.ready", payload: { batchId, chainId: batch.chainId } });
  return batchId;
};

describe("createWithdrawalBatches", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });
  beforeEach(() => db.$executeRaw`TRUNCATE partners, gas_wallets, batches, chain_transactions, ledger_entries, outbox CASCADE`);

  /** A partner with its gas wallet; its id and the gas wallet's. */
  async function partner(environment: Environment = "testnet") {
    const created = await db.partner.create({
      data: { name: "withdrawals", environment, gasWallet: { create: { address: `0x${randomBytes(20).toString("hex")}`, encryptedKey: "sealed", kekId: "test" } } },
      select: { id: true, gasWallet: { select: { id: true } } },
    });
    return { partnerId: created.id, gasWalletId: created.gasWallet!.id };
  }

  function book(partnerId: string, chainId: number, kind: LedgerKind, amount: bigint, dedupeKey = `test:${randomUUID()}`) {
    return db.ledgerEntry.create({ data: { partnerId, chainId, kind, amount: toDecimal(amount), dedupeKey } });
  }

  const withdraw = (options: { chainId?: number } = {}) => createWithdrawalBatches(db, { ...testnet, ...options, openBatch });
  const sorted = <T extends { partnerId: string; chainId: number }>(rows: T[]) => [...rows].sort((a, b) => `${a.partnerId}:${a.chainId}`.localeCompare(`${b.partnerId}:${b.chainId}`));

  it("creates an open withdrawal batch and its batch.ready for each gas wallet and chain with fees due, none for the others", async () => {
    // The last partner has no ledger entries at all.
    const [both, one, settled, credited, mainnet] = await Promise.all([partner(), partner(), partner(), partner(), partner("mainnet"), partner()]);
    await Promise.all([
      book(both.partnerId, SEPOLIA, "fee", -700n),
      book(both.partnerId, BSC_TESTNET, "fee", -90n),
      book(both.partnerId, BSC_TESTNET, "fee_charge", -10n),
      book(one.partnerId, BSC_TESTNET, "fee", -5n),
      book(one.partnerId, SEPOLIA, "gas", -1_000n),
      book(settled.partnerId, SEPOLIA, "fee", -300n),
      book(settled.partnerId, SEPOLIA, "withdrawal", -300n),
      book(credited.partnerId, BSC_TESTNET, "fee", -50n),
      book(credited.partnerId, BSC_TESTNET, "fee_credit", 80n),
      book(mainnet.partnerId, 56, "fee", -1_000n),
    ]);

    const created = await withdraw();

    const expected = [
      { partnerId: both.partnerId, gasWalletId: both.gasWalletId, chainId: SEPOLIA, feesDue: 700n },
      { partnerId: both.partnerId, gasWalletId: both.gasWalletId, chainId: BSC_TESTNET, feesDue: 100n },
      { partnerId: one.partnerId, gasWalletId: one.gasWalletId, chainId: BSC_TESTNET, feesDue: 5n },
    ];
    expect(sorted(created)).toEqual(sorted(expected.map((e) => ({ ...e, batchId: expect.any(String) }))));
    const batches = await db.batch.findMany({ include: { items: true } });
    expect(sorted(batches.map((b) => ({ ...b, partnerId: created.find((c) => c.batchId === b.id)!.partnerId })))).toEqual(
      sorted(
        created.map((c) => ({
          id: c.batchId,
          partnerId: c.partnerId,
          chainId: c.chainId,
          gasWalletId: c.gasWalletId,
          hotWalletId: null,
          purpose: "withdrawal",
          status: "open",
          reason: null,
          // a withdrawal of the fees to the treasury, not a drain
          drainTo: null,
          items: [],
          createdAt: expect.any(Date),
          updatedAt: expect.any(Date),
        })),
      ),
    );
    const outbox = await db.outboxMessage.findMany();
    expect(outbox.map((m) => ({ exchange: m.exchange, routingKey: m.routingKey, type: m.type, payload: m.payload, publishedAt: m.publishedAt }))).toEqual(
      expect.arrayContaining(created.map((c) => ({ exchange: "test.sweep.work", routingKey: `test.sender.${c.chainId}`, type: "batch.ready", payload: { batchId: c.batchId, chainId: c.chainId }, publishedAt: null }))),
    );
    expect(outbox).toHaveLength(created.length);
  });

  it("looks at one chain when asked, and refuses a chain of another environment", async () => {
    const { partnerId } = await partner();
    await Promise.all([book(partnerId, SEPOLIA, "fee", -7n), book(partnerId, BSC_TESTNET, "fee", -8n)]);

    expect((await withdraw({ chainId: BSC_TESTNET })).map((c) => [c.chainId, c.feesDue])).toEqual([[BSC_TESTNET, 8n]]);
    await expect(withdraw({ chainId: 56 })).rejects.toThrow("chain 56 is not a chain of the testnet environment (11155111, 97)");
    expect(await db.batch.count({ where: { chainId: SEPOLIA } })).toBe(0);
  });

  it("creates none while the gas wallet's withdrawal on the chain is open, sent, or mined and not yet booked; another once it failed or was booked", async () => {
    const { partnerId, gasWalletId } = await partner();
    await book(partnerId, SEPOLIA, "fee", -1_000n);
    const [first] = await withdraw();
    const setStatus = (status: BatchStatus) => db.batch.update({ where: { id: first!.batchId }, data: { status } });

    expect(await withdraw()).toEqual([]);
    await setStatus("sent");
    expect(await withdraw()).toEqual([]);

    // Mined and confirmed, its outcome still on the way to the ledger: the fees due still count what it took.
    const hash = `0x${randomBytes(32).toString("hex")}`;
    await db.chainTransaction.create({
      data: { chainId: SEPOLIA, gasWalletId, batchId: first!.batchId, nonce: 0n, hash, rawTx: "0x02", status: "confirmed", gasLimit: 21_000n, maxFeePerGas: toDecimal(1n), maxPriorityFeePerGas: toDecimal(1n) },
    });
    await setStatus("confirmed");
    expect(await withdraw()).toEqual([]);

    await book(partnerId, SEPOLIA, "withdrawal", -900n, `withdrawal:${hash}`);
    const [second] = await withdraw();
    expect(second).toMatchObject({ partnerId, chainId: SEPOLIA, feesDue: 100n });

    await db.batch.update({ where: { id: second!.batchId }, data: { status: "failed", reason: "internal" } });
    const [third] = await withdraw();
    expect(third).toMatchObject({ partnerId, chainId: SEPOLIA, feesDue: 100n });
    expect(await db.batch.count({ where: { gasWalletId, status: { in: ["open", "sent"] } } })).toBe(1);
  });

  it("takes a withdrawal settled without a transaction as done", async () => {
    const { partnerId } = await partner();
    await book(partnerId, BSC_TESTNET, "fee", -3n);
    const [empty] = await withdraw();
    await db.batch.update({ where: { id: empty!.batchId }, data: { status: "confirmed" } });
    expect(await withdraw()).toEqual([expect.objectContaining({ partnerId, chainId: BSC_TESTNET, feesDue: 3n })]);
  });

  it("creates one batch per gas wallet and chain when callers run at the same time", async () => {
    const wallets = await Promise.all([partner(), partner(), partner()]);
    await Promise.all(wallets.flatMap(({ partnerId }) => [book(partnerId, SEPOLIA, "fee", -11n), book(partnerId, BSC_TESTNET, "fee", -12n)]));

    const runs = await Promise.all(Array.from({ length: 6 }, () => withdraw()));

    expect(runs.flat()).toHaveLength(6);
    const batches = await db.batch.groupBy({ by: ["gasWalletId", "chainId"], _count: { _all: true } });
    expect(batches).toHaveLength(6);
    expect(batches.every((b) => b._count._all === 1)).toBe(true);
    expect(await db.outboxMessage.count()).toBe(6);
  });
});
