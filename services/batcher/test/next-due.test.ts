/**
 * When the due poller's rest ends, through the real database: the earliest retry pause of the
 * chain's queued sweeps and revocations still to end; null when none waits (the poller then rests
 * its longest, and the messages start every round).
 */
import { createDb, type Db } from "@sweep/db";
import { createTestDatabase, createTestPartner } from "@sweep/testkit";
import { Wallet } from "ethers";
import { nextDueAt } from "../src/next-due";

describe("the next due time of a chain's queued work", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let partnerId: string;
  let hotWalletId: string;
  const now = new Date();
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1_000);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    ({ partnerId } = await createTestPartner(db, "next due"));
    const address = Wallet.createRandom().address;
    ({ id: hotWalletId } = await db.hotWallet.create({ data: { partnerId, chainId: 97, address, delegate: Wallet.createRandom().address, status: "active" } }));
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  const sweep = (fields: { status?: "queued" | "failed"; nextAttemptAt?: Date }) =>
    db.sweep.create({ data: { partnerId, chainId: 97, hotWalletId, account: Wallet.createRandom().address, token: "USDT", tokenAddress: null, ...fields } });
  const revocation = (fields: { chainId: number; nextAttemptAt?: Date }) =>
    db.revocation.create({ data: { partnerId, account: Wallet.createRandom().address, authorization: {}, ...fields } });

  it("is none while nothing waits out a retry pause: due now, or not queued", async () => {
    await sweep({});
    await sweep({ nextAttemptAt: at(-30) });
    await sweep({ status: "failed", nextAttemptAt: at(5) });
    expect(await nextDueAt(db, 97, now)).toBeNull();
  });

  it("is the earliest pause's end among the chain's queued sweeps and revocations", async () => {
    await sweep({ nextAttemptAt: at(60) });
    await revocation({ chainId: 97, nextAttemptAt: at(20) });
    // Another chain's: not this poller's.
    await revocation({ chainId: 11155111, nextAttemptAt: at(10) });
    expect(await nextDueAt(db, 97, now)).toEqual(at(20));
    await sweep({ nextAttemptAt: at(15) });
    expect(await nextDueAt(db, 97, now)).toEqual(at(15));
    expect(await nextDueAt(db, 11155111, now)).toEqual(at(10));
  });
});
