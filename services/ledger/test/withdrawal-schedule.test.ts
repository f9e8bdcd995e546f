/**
 * The scheduled fee withdrawals through Postgres, on a database of their own (a run looks at every
 * gas wallet of the environment), with a short interval.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "@sweep/common";
import { createDb, toDecimal, type Db } from "@sweep/db";
import { queueNames } from "@sweep/messaging";
import { createTestDatabase, eventually } from "@sweep/testkit";
import { startWithdrawalSchedule, type WithdrawalSchedule } from "../src/withdrawal-schedule";
import { createPartner } from "./fixtures";

const INTERVAL_MS = 600;
const names = queueNames("withdrawal-schedule-test");
const logger = createLogger("withdrawal-schedule-test", "error");

describe("withdrawal schedule", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let schedule: WithdrawalSchedule | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
  });
  afterEach(() => schedule?.stop());
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  async function partnerWithFee(chainId: number, wei: bigint) {
    const partner = await createPartner(db);
    await db.ledgerEntry.create({ data: { partnerId: partner.partnerId, chainId, kind: "fee", amount: toDecimal(-wei), dedupeKey: `fee:${randomUUID()}` } });
    return partner;
  }

  const withdrawalBatches = (gasWalletId: string) => db.batch.findMany({ where: { gasWalletId, purpose: "withdrawal" } });

  function start(intervalMs: number) {
    const woken: number[] = [];
    schedule = startWithdrawalSchedule({ db, environment: "testnet", chainIds: [11155111, 97], names, intervalMs, outboxWritten: () => woken.push(Date.now()), logger });
    return { startedAt: Date.now(), woken };
  }

  it("creates withdrawal batches one interval after start, not at start, and again every interval; wakes the relay after a run that created some", async () => {
    const first = await partnerWithFee(97, 1_000n);
    const { startedAt, woken } = start(INTERVAL_MS);

    await sleep(INTERVAL_MS / 3);
    expect(await withdrawalBatches(first.gasWalletId)).toEqual([]);

    const batch = await eventually("the first run's batch", async () => (await withdrawalBatches(first.gasWalletId))[0], 5_000, 50);
    expect(batch.createdAt.getTime() - startedAt).toBeGreaterThanOrEqual(INTERVAL_MS - 50);
    expect(batch).toMatchObject({ chainId: 97, status: "open", hotWalletId: null });
    const outbox = await db.outboxMessage.findMany({ where: { routingKey: names.sender(97) } });
    expect(outbox.map((m) => ({ exchange: m.exchange, type: m.type, payload: m.payload }))).toEqual([{ exchange: names.workExchange, type: "batch.ready", payload: { batchId: batch.id, chainId: 97 } }]);
    await eventually("the relay woken", async () => (woken.length === 1 ? true : undefined), 2_000, 20);

    // The next run leaves the open batch alone and takes the fees that came since.
    const second = await partnerWithFee(11155111, 5n);
    await eventually("the second run's batch", async () => (await withdrawalBatches(second.gasWalletId))[0], 5_000, 50);
    expect(await withdrawalBatches(first.gasWalletId)).toHaveLength(1);
    await eventually("the relay woken again", async () => (woken.length === 2 ? true : undefined), 2_000, 20);
  });

  it("creates nothing once stopped", async () => {
    start(INTERVAL_MS);
    await schedule!.stop();
    const partner = await partnerWithFee(97, 1_000n);
    await sleep(INTERVAL_MS * 2);
    expect(await withdrawalBatches(partner.gasWalletId)).toEqual([]);
  });

  it("is off with an interval of 0", async () => {
    const partner = await partnerWithFee(97, 1_000n);
    const { woken } = start(0);
    await sleep(1_000);
    expect(await withdrawalBatches(partner.gasWalletId)).toEqual([]);
    expect(woken).toEqual([]);
  });
});
