import { toBigInt, type Db } from "@sweep/db";
import type Redis from "ioredis";
import { bookAdjustment, parseWei, type Adjustment, type AdjustmentOptions } from "./ledger-commands";
import { openTestConnections, testContext } from "./test-support";

const MAX_78_DIGITS = "9".repeat(78);

interface Printed {
  id: number;
  partner_id: string;
  chain_id: number;
  kind: string;
  amount: string;
  tx_hash: null;
  sweep_id: null;
  note: string;
  created_at: string;
}

describe("ledger commands", () => {
  let db: Db;
  let redis: Redis;
  let close: () => Promise<void>;
  let partnerId: string;
  let mainnetPartnerId: string;
  beforeAll(async () => {
    ({ db, redis, close } = await openTestConnections());
    partnerId = (await db.partner.create({ data: { name: "ledger", environment: "testnet" } })).id;
    mainnetPartnerId = (await db.partner.create({ data: { name: "ledger mainnet", environment: "mainnet" } })).id;
  });
  afterAll(() => close());

  async function book(adjustment: Adjustment, options: Partial<AdjustmentOptions> = {}, id = partnerId) {
    const ctx = testContext(db, redis);
    await bookAdjustment(ctx, adjustment, id, { chain: "97", amount: "1500", note: "manual correction", ...options });
    return { printed: ctx.out.results[0] as Printed, lines: ctx.out.lines };
  }

  it.each([
    ["charge", "fee_charge", "-1500"],
    ["credit", "fee_credit", "1500"],
  ] as const)("a %s writes one %s entry of %s wei and prints it", async (adjustment, kind, amount) => {
    const { printed, lines } = await book(adjustment, { note: "  goodwill, ticket 42  " });

    const entry = await db.ledgerEntry.findUniqueOrThrow({ where: { id: BigInt(printed.id) } });
    expect({ ...entry, amount: toBigInt(entry.amount) }).toEqual({
      id: BigInt(printed.id),
      partnerId,
      chainId: 97,
      kind,
      amount: BigInt(amount),
      txHash: null,
      sweepId: null,
      note: "goodwill, ticket 42",
      dedupeKey: expect.stringMatching(new RegExp(`^${adjustment}:[0-9a-f-]{36}$`)),
      createdAt: expect.any(Date),
    });
    expect(printed).toEqual({
      id: printed.id,
      partner_id: partnerId,
      chain_id: 97,
      kind,
      amount,
      tx_hash: null,
      sweep_id: null,
      note: "goodwill, ticket 42",
      created_at: entry.createdAt.toISOString(),
    });
    expect(lines.join("\n")).toContain(`ledger entry ${printed.id}: ${kind} ${amount} wei on chain 97`);
    expect(lines.join("\n")).toContain("goodwill, ticket 42");
  });

  it("books every run as its own entry, each with its own dedupe key", async () => {
    const first = await book("charge");
    const second = await book("charge");
    const entries = await db.ledgerEntry.findMany({ where: { id: { in: [BigInt(first.printed.id), BigInt(second.printed.id)] } } });
    expect(new Set(entries.map((e) => e.dedupeKey)).size).toBe(2);
  });

  it("keeps an amount of 78 digits to the wei, on a chain of the partner's mainnet environment", async () => {
    const { printed } = await book("charge", { chain: "56", amount: MAX_78_DIGITS }, mainnetPartnerId);
    expect(printed.amount).toBe(`-${MAX_78_DIGITS}`);
    const entry = await db.ledgerEntry.findUniqueOrThrow({ where: { id: BigInt(printed.id) } });
    expect(toBigInt(entry.amount)).toBe(-BigInt(MAX_78_DIGITS));
  });

  it.each([
    ["an unknown partner", "charge", {}, "00000000-0000-4000-8000-000000000000", /no partner with id 00000000-0000-4000-8000-000000000000/],
    ["a malformed partner id", "credit", {}, "acme", /not a partner id: "acme"/],
    ["a chain of another environment", "charge", { chain: "1" }, undefined, /chain 1 is not a chain of partner .*'s testnet environment \(11155111, 97\)/],
    ["a chain that is no chain id", "credit", { chain: "bsc" }, undefined, /--chain takes a chain id, got "bsc"/],
    ["a float amount", "charge", { amount: "1.5" }, undefined, /--amount takes a positive whole number of wei, 1 to 78 digits, got "1.5"/],
    ["an empty note", "credit", { note: "   " }, undefined, /--note takes 1 to 500 characters/],
    ["a note too long", "charge", { note: "x".repeat(501) }, undefined, /--note takes 1 to 500 characters/],
  ] as Array<[string, Adjustment, Partial<AdjustmentOptions>, string | undefined, RegExp]>)("refuses %s and writes nothing", async (_what, adjustment, options, id, message) => {
    const count = () => db.ledgerEntry.count({ where: { partnerId } });
    const before = await count();
    await expect(book(adjustment, options, id ?? partnerId)).rejects.toThrow(message);
    expect(await count()).toBe(before);
  });
});

describe("parseWei", () => {
  it.each([
    ["1", 1n],
    ["1500", 1500n],
    ["007", 7n],
    [MAX_78_DIGITS, BigInt(MAX_78_DIGITS)],
  ])("takes %s", (value, wei) => {
    expect(parseWei(value)).toBe(wei);
  });

  it.each(["", "0", "000", "-5", "+5", "1.5", "1e18", "0x10", " 5", "5 ", "1_000", "١٢", `1${MAX_78_DIGITS}`])("refuses %j", (value) => {
    expect(() => parseWei(value)).toThrow(/--amount takes a positive whole number of wei/);
  });
});
