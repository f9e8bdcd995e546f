/**
 * `fees withdraw` on a database of its own: it looks at every gas wallet of the environment, and
 * the shared test database holds other tests' ones.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createDb, toDecimal, type Db } from "@sweep/db";
import { createTestDatabase } from "@sweep/testkit";
import type Redis from "ioredis";
import { connectRedis } from "./context";
import { withdrawFees } from "./fees-commands";
import { runSweepctl } from "@sweep/testkit";
import { testContext } from "./test-support";

const PREFIX = "fees-withdraw-test";

interface Printed {
  withdrawals: Array<{ batch_id: string; partner_id: string; chain_id: number; fees_due: string }>;
}

describe("fees withdraw", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let redis: Redis;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { poolSize: 2 });
    redis = await connectRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  });
  afterAll(async () => {
    await Promise.all([db?.$disconnect(), redis?.quit()]);
    await database?.drop();
  });
  beforeEach(() => db.$executeRaw`TRUNCATE partners, gas_wallets, batches, ledger_entries, outbox CASCADE`);

  /** A testnet partner with its gas wallet and these fees on each chain. */
  async function partnerWithFees(name: string, fees: Array<[chainId: number, wei: bigint]>) {
    const { id } = await db.partner.create({
      data: { name, environment: "testnet", gasWallet: { create: { address: `0x${randomBytes(20).toString("hex")}`, encryptedKey: "sealed", kekId: "test" } } },
    });
    await db.ledgerEntry.createMany({ data: fees.map(([chainId, wei]) => ({ partnerId: id, chainId, kind: "fee" as const, amount: toDecimal(-wei), dedupeKey: `fee:${randomUUID()}` })) });
    return id;
  }

  async function withdraw(options: { chain?: string } = {}) {
    const ctx = testContext(db, redis, { AMQP_PREFIX: PREFIX });
    await withdrawFees(ctx, options);
    return { printed: ctx.out.results[0] as Printed, lines: ctx.out.lines, notes: ctx.out.notes };
  }

  it("creates a batch for each gas wallet and chain with fees due, with a batch.ready for the chain's sender, and prints them", async () => {
    const acme = await partnerWithFees("acme", [[11155111, 1_500n], [97, 2n ** 200n]]);
    await partnerWithFees("no fees", []);

    const { printed, lines, notes } = await withdraw();

    const expected = [
      { partner_id: acme, chain_id: 11155111, fees_due: "1500" },
      { partner_id: acme, chain_id: 97, fees_due: (2n ** 200n).toString() },
    ];
    expect(printed.withdrawals).toHaveLength(2);
    expect(printed.withdrawals).toEqual(expect.arrayContaining(expected.map((e) => ({ ...e, batch_id: expect.any(String) }))));
    for (const w of printed.withdrawals) {
      expect(lines).toContain(`withdrawal batch ${w.batch_id}: ${w.fees_due} wei of fees due on chain ${w.chain_id} from partner ${acme} (acme)`);
      const batch = await db.batch.findUniqueOrThrow({ where: { id: w.batch_id }, include: { gasWallet: true } });
      expect(batch).toMatchObject({ purpose: "withdrawal", status: "open", chainId: w.chain_id, hotWalletId: null, gasWallet: { partnerId: acme } });
    }
    const outbox = await db.outboxMessage.findMany();
    expect(outbox.map((m) => ({ exchange: m.exchange, routingKey: m.routingKey, type: m.type, payload: m.payload }))).toEqual(
      expect.arrayContaining(
        printed.withdrawals.map((w) => ({ exchange: `${PREFIX}.sweep.work`, routingKey: `${PREFIX}.sender.${w.chain_id}`, type: "batch.ready", payload: { batchId: w.batch_id, chainId: w.chain_id } })),
      ),
    );
    expect(outbox).toHaveLength(2);
    expect(notes).toEqual(["written to the outbox: the outbox relay of any running service publishes them to the chain-sender"]);
  });

  it("prints nothing to withdraw while the withdrawals are under way", async () => {
    await partnerWithFees("acme", [[97, 10n]]);
    await withdraw();

    const { printed, lines, notes } = await withdraw();
    expect(printed).toEqual({ withdrawals: [] });
    expect(lines).toEqual(["nothing to withdraw"]);
    expect(notes).toEqual([]);
    expect(await db.outboxMessage.count()).toBe(1);
  });

  it("withdraws on the one chain asked", async () => {
    const acme = await partnerWithFees("acme", [[11155111, 3n], [97, 4n]]);
    const { printed } = await withdraw({ chain: "97" });
    expect(printed.withdrawals).toEqual([{ batch_id: expect.any(String), partner_id: acme, chain_id: 97, fees_due: "4" }]);
    expect(await db.batch.count({ where: { chainId: 11155111 } })).toBe(0);
  });

  it.each([
    ["a chain of another environment", "56", "chain 56 is not a chain of the testnet environment (11155111, 97)"],
    ["a chain that is no chain id", "bsc", '--chain takes a chain id, got "bsc"'],
  ])("refuses %s and creates nothing", async (_what, chain, message) => {
    await partnerWithFees("acme", [[97, 4n]]);
    await expect(withdraw({ chain })).rejects.toThrow(message);
    expect(await db.batch.count()).toBe(0);
  });

  it("runs as a process: JSON on stdout, then nothing to withdraw", async () => {
    const acme = await partnerWithFees("acme", [[97, 99n]]);
    const env = { DATABASE_URL: database.url, AMQP_PREFIX: PREFIX };

    const first = await runSweepctl(["fees", "withdraw", "--chain", "97", "--json"], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ withdrawals: [{ batch_id: expect.any(String), partner_id: acme, chain_id: 97, fees_due: "99" }] });
    expect(first.stderr).toContain("the outbox relay of any running service publishes them");

    const second = await runSweepctl(["fees", "withdraw"], env);
    expect(second).toMatchObject({ code: 0, stdout: "nothing to withdraw\n" });
  });
});
