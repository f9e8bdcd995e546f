import { randomUUID } from "node:crypto";
import { createDb, feeReserve, toDecimal, type Db, type LedgerKind } from "../src/index";

type Entry = [LedgerKind, bigint, { chainId?: number; otherPartner?: boolean }?];

const CHAIN = 97;
const half = 1n << 255n;

describe("feeReserve from the ledger", () => {
  let db: Db;
  beforeAll(() => {
    db = createDb(process.env.DATABASE_URL!);
  });
  afterAll(() => db.$disconnect());

  const partner = () => db.partner.create({ data: { name: "fee reserve", environment: "testnet" }, select: { id: true } });

  it.each<[string, Entry[], { accrued: bigint; withdrawn: bigint; due: bigint }]>([
    ["an empty ledger", [], { accrued: 0n, withdrawn: 0n, due: 0n }],
    ["fees only", [["fee", -100n], ["fee", -50n]], { accrued: 150n, withdrawn: 0n, due: 150n }],
    ["fees, a charge and a credit", [["fee", -100n], ["fee_charge", -30n], ["fee_credit", 20n]], { accrued: 110n, withdrawn: 0n, due: 110n }],
    ["a withdrawal of part of them", [["fee", -100n], ["withdrawal", -60n]], { accrued: 100n, withdrawn: 60n, due: 40n }],
    ["a withdrawal of all of them", [["fee", -100n], ["withdrawal", -100n], ["fee", -7n]], { accrued: 107n, withdrawn: 100n, due: 7n }],
    ["credits exceeding the fees", [["fee", -100n], ["fee_credit", 150n]], { accrued: -50n, withdrawn: 0n, due: 0n }],
    ["withdrawals exceeding what accrued", [["fee", -100n], ["withdrawal", -120n]], { accrued: 100n, withdrawn: 120n, due: 0n }],
    [
      "gas, top-ups, other chains and other partners left out",
      [["fee", -10n], ["gas", -1_000n], ["topup", 5_000n], ["fee", -999n, { chainId: 11155111 }], ["withdrawal", -999n, { chainId: 11155111 }], ["fee", -999n, { otherPartner: true }]],
      { accrued: 10n, withdrawn: 0n, due: 10n },
    ],
    ["sums past 2^256, to the wei", [["fee", -half], ["fee_charge", -half], ["fee", -1n], ["withdrawal", -half]], { accrued: 2n * half + 1n, withdrawn: half, due: half + 1n }],
  ])("%s", async (_what, entries, expected) => {
    const [mine, other] = await Promise.all([partner(), partner()]);
    await db.ledgerEntry.createMany({
      data: entries.map(([kind, amount, where]) => ({
        partnerId: where?.otherPartner ? other.id : mine.id,
        chainId: where?.chainId ?? CHAIN,
        kind,
        amount: toDecimal(amount),
        dedupeKey: `test:${randomUUID()}`,
      })),
    });
    expect(await feeReserve(db, mine.id, CHAIN)).toEqual(expected);
  });

  it("reads inside a transaction too", async () => {
    const { id } = await partner();
    const reserve = await db.$transaction(async (tx) => {
      await tx.ledgerEntry.create({ data: { partnerId: id, chainId: CHAIN, kind: "fee", amount: toDecimal(-5n), dedupeKey: `test:${randomUUID()}` } });
      return feeReserve(tx, id, CHAIN);
    });
    expect(reserve).toEqual({ accrued: 5n, withdrawn: 0n, due: 5n });
  });
});
