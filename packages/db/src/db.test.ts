import { createDb, enqueueOutbox, toBigInt, toDecimal, type Db } from "./index";

/** The largest amount a column holds: 256 bits. */
const MAX_UINT256 = (1n << 256n) - 1n;

describe("database through Prisma and the pg adapter", () => {
  let db: Db;
  beforeAll(() => {
    db = createDb(process.env.DATABASE_URL!);
  });
  afterAll(() => db.$disconnect());

  it("keeps a 78-digit amount to the wei", async () => {
    const partner = await db.partner.create({ data: { name: "decimal", environment: "testnet" } });
    const entry = await db.ledgerEntry.create({
      data: { partnerId: partner.id, chainId: 97, kind: "topup", amount: toDecimal(MAX_UINT256), dedupeKey: `test:${partner.id}` },
    });
    const read = await db.ledgerEntry.findUniqueOrThrow({ where: { id: entry.id } });
    expect(toBigInt(read.amount)).toBe(MAX_UINT256);
    expect(read.amount.toFixed(0)).toHaveLength(78);
  });

  it("writes the outbox in the same transaction as the state, or not at all", async () => {
    const name = `outbox-${Date.now()}`;
    await expect(
      db.$transaction(async (tx) => {
        const partner = await tx.partner.create({ data: { name, environment: "testnet" } });
        await enqueueOutbox(tx, { exchange: "x", routingKey: "r", type: "t", payload: { partnerId: partner.id } });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await db.partner.count({ where: { name } })).toBe(0);
  });

  it("refuses a second sweep with the same external_id for a partner", async () => {
    const partner = await db.partner.create({ data: { name: "dup", environment: "testnet" } });
    const hw = await db.hotWallet.create({
      data: { partnerId: partner.id, chainId: 97, address: "0x" + "11".repeat(20), delegate: "0x" + "22".repeat(20) },
    });
    const sweep = { partnerId: partner.id, externalId: "e-1", chainId: 97, hotWalletId: hw.id, account: "0x" + "33".repeat(20), token: "USDT" };
    await db.sweep.create({ data: sweep });
    await expect(db.sweep.create({ data: sweep })).rejects.toMatchObject({ code: "P2002" });
  });
});
