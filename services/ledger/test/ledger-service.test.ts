/**
 * The ledger as its own process (main.ts): configuration, database, chains, broker, consumer,
 * health and shutdown, on a database of its own and a topology of its own.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { environmentChainIds, factoryAddress } from "@sweep/chains";
import { createLogger } from "@sweep/common";
import { contractAt, delegateAddress } from "@sweep/contracts";
import { createDb, toBigInt, type Db } from "@sweep/db";
import { deleteTopology, openMessaging, type Messaging } from "@sweep/messaging";
import { createTestDatabase, startService, startTestChain, type ServiceProcess, type TestChain } from "@sweep/testkit";
import { createConfirmedTransaction, createDeployBatch, createHotWallet, createPartner, createSweepBatch, randomAddress } from "./fixtures";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

async function until<T>(probe: () => Promise<T | null | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("ledger service", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let chain: TestChain;
  let messaging: Messaging;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    chain = await startTestChain(97);
    const prefix = `ledger-service-test-${randomUUID().slice(0, 8)}`;
    messaging = await openMessaging({ url: RABBITMQ_URL, chainIds: environmentChainIds("testnet"), prefix, logger: createLogger("ledger-service-test", "error") });
    // The benchmark pinned, so the fee below does not move with a new measurement.
    service = await startService("ledger", { DATABASE_URL: database.url, AMQP_PREFIX: prefix, CLASSIC_GAS_97_USDT: "50547,50547", ...chain.env });
  });

  afterAll(async () => {
    await service?.kill();
    if (messaging) {
      await deleteTopology(RABBITMQ_URL, messaging.topology);
      for (const closer of [...messaging.closers].reverse()) await closer.close();
    }
    await chain?.stop();
    await db?.$disconnect();
    await database?.drop();
  });

  it("activates a deployed hot wallet and sweeps its batch with the configured tariff, then shuts down cleanly", async () => {
    const partner = await createPartner(db);
    const address = randomAddress();
    const delegate = delegateAddress(factoryAddress(97), address, partner.gasWallet);
    const hotWallet = await createHotWallet(db, partner, { status: "pending", address, delegate });
    const deployBatch = await createDeployBatch(db, partner, hotWallet, "confirmed");
    const factory = contractAt("DelegateFactory", factoryAddress(97), await chain.provider.getSigner(0));
    const receipt = (await (await factory.getFunction("deploy")(address, partner.gasWallet)).wait())!;
    const deployment = await createConfirmedTransaction(db, partner, deployBatch.id, { hash: receipt.hash, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.gasPrice, succeeded: true, blockNumber: receipt.blockNumber });

    await messaging.publisher.publish("tx.outcome", { chainId: 97, transactionId: deployment.id });
    await until(() => db.hotWallet.findFirst({ where: { id: hotWallet.id, status: "active" } }), "the hot wallet to be active");

    const { sweepIds, batchId } = await createSweepBatch(db, partner, hotWallet, [{ kind: "repeat", withAuthorization: false, outcome: "swept", amount: 42n, gasUsed: 18_000n }]);
    const sweepTx = await createConfirmedTransaction(db, partner, batchId, { gasUsed: 30_000n, effectiveGasPrice: 1_000_000_000n, succeeded: true });
    await messaging.publisher.publish("tx.outcome", { chainId: 97, transactionId: sweepTx.id });
    const sweep = await until(() => db.sweep.findFirst({ where: { id: sweepIds[0], status: "swept" } }), "the sweep to be swept");

    // 70% of the pinned 50,547-gas benchmark, 35,382.9 − 30,000 = 5,382.9 gas at 1 gwei
    expect({ gas: sweep.gas, fee: toBigInt(sweep.fee!), rateBps: sweep.rateBps }).toEqual({ gas: 30_000n, fee: 5_382_900_000_000n, rateBps: 7000 });
    expect(await db.event.count({ where: { partnerId: partner.partnerId } })).toBe(2);
    expect(await service!.stop()).toBe(0);
    service = undefined;
  });
});
