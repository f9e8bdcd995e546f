/**
 * The ledger consumer through the real Postgres and RabbitMQ (a topology of its own), on the state
 * the batcher and the chain-sender leave (sweep, revocation, deployment and withdrawal batches); a real anvil
 * where the delegate's code decides.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { chainRegistry, devnetTokenAddress, factoryAddress } from "@sweep/chains";
import { configuredTariffs } from "@sweep/fees";
import { createLogger } from "@sweep/common";
import { contractAt, delegateAddress } from "@sweep/contracts";
import { createDb, feeReserve, toBigInt, toDecimal, type Db } from "@sweep/db";
import { deleteTopology, openMessaging, type Consumer, type DeliveryContext, type Handlers, type MessagePayload, type Messaging } from "@sweep/messaging";
import { sweepsFinal } from "@sweep/metrics";
import { startTestChain, type TestChain } from "@sweep/testkit";
import { ZeroAddress } from "ethers";
import { codeCheck } from "../src/chain-code";
import { ledgerHandlers, startLedgerConsumer } from "../src/ledger-consumer";
import type { LedgerDeps } from "../src/ledger-deps";
import { settleTransaction } from "../src/batch-purposes";
import {
  createConfirmedTransaction,
  createDeployBatch,
  createHotWallet,
  createPartner,
  createRevocationBatch,
  createSweepBatch,
  createWithdrawal,
  randomAddress,
  type Partner,
  type RevocationSpec,
} from "./fixtures";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";
const NOW = new Date("2026-11-21T00:00:00Z");
const MAX_UINT256 = (1n << 256n) - 1n;
const logger = createLogger("ledger-test", "error");

describe("ledger consumer", () => {
  let db: Db;
  let chain: TestChain;
  let messaging: Messaging;
  let consumer: Consumer;
  let deps: LedgerDeps;
  const completed = new Map<string, number>();
  const failures: string[] = [];

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    chain = await startTestChain(97);
    messaging = await openMessaging({ url: RABBITMQ_URL, chainIds: [97, 11155111], prefix: `ledger-test-${randomUUID().slice(0, 8)}`, logger, db });
    deps = {
      db,
      names: messaging.topology.names,
      // The benchmark pinned, so the fee figures below do not move with a new measurement.
      tariffs: new Map(configuredTariffs(chainRegistry("testnet", devnetTokenAddress, {}), { CLASSIC_GAS_97_USDT: "50547,50547" }).map((t) => [t.chainId, t])),
      hasCode: codeCheck([{ chainId: 97, provider: chain.provider }]),
      maxAttempts: 5,
      now: () => NOW,
      outboxWritten: () => messaging.relay?.wake(),
    };
    // The real handlers, counted when they finish, so a test knows when every copy was handled.
    const real = ledgerHandlers(deps);
    const counted = async <R>(context: DeliveryContext, handle: () => Promise<R>): Promise<R> => {
      try {
        return await handle();
      } catch (err) {
        failures.push(String(err));
        throw err;
      } finally {
        completed.set(context.messageId, (completed.get(context.messageId) ?? 0) + 1);
      }
    };
    const handlers: Handlers = {
      "tx.outcome": (payload, context) => counted(context, () => real["tx.outcome"]!(payload, context)),
      "batch.failed": (payload, context) => counted(context, () => real["batch.failed"]!(payload, context)),
    };
    consumer = await startLedgerConsumer(messaging, deps, logger, handlers);
  });

  afterAll(async () => {
    await consumer?.stop();
    if (messaging) {
      await deleteTopology(RABBITMQ_URL, messaging.topology);
      for (const closer of [...messaging.closers].reverse()) await closer.close();
    }
    await chain?.stop();
    await db?.$disconnect();
  });

  afterEach(() => {
    expect(failures).toEqual([]);
  });

  /** Publishes one message `copies` times under one message id (a redelivery) and waits until every copy was handled. */
  async function deliver<T extends "tx.outcome" | "batch.failed">(type: T, payload: MessagePayload<T>, copies = 2): Promise<void> {
    const messageId = randomUUID();
    await Promise.all(Array.from({ length: copies }, () => messaging.publisher.publish(type, payload, { messageId })));
    const deadline = Date.now() + 20_000;
    while ((completed.get(messageId) ?? 0) < copies) {
      if (Date.now() > deadline) throw new Error(`${type} was not handled ${copies} times`);
      await sleep(20);
    }
  }

  /** This process's sweep_sweeps_final_total by `status/reason`, counting from `since` (an earlier reading). */
  async function finalSweeps(since: Record<string, number> = {}): Promise<Record<string, number>> {
    const counts = (await sweepsFinal.get()).values.map((v) => [`${v.labels.status}/${v.labels.reason}`, v.value - (since[`${v.labels.status}/${v.labels.reason}`] ?? 0)] as const);
    return Object.fromEntries(counts.filter(([, count]) => count !== 0));
  }

  /** Everything the ledger writes for a partner, to see that a redelivery changes nothing. */
  async function written(partnerId: string) {
    const events = await db.event.findMany({ where: { partnerId }, orderBy: { createdAt: "asc" } });
    return {
      sweeps: await db.sweep.findMany({ where: { partnerId }, orderBy: { seq: "asc" } }),
      revocations: await db.revocation.findMany({ where: { partnerId }, orderBy: { seq: "asc" } }),
      hotWallets: await db.hotWallet.findMany({ where: { partnerId }, orderBy: { createdAt: "asc" } }),
      ledger: await db.ledgerEntry.findMany({ where: { partnerId }, orderBy: { id: "asc" } }),
      events,
      outbox: await db.outboxMessage.count({ where: { exchange: messaging.topology.names.workExchange } }),
    };
  }

  /** Settles as the handler does, counting the SQL statements sent. */
  async function countedSettlement(transactionId: string): Promise<number> {
    const counting = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }), log: [{ emit: "event", level: "query" }] });
    let statements = 0;
    counting.$on("query", () => (statements += 1));
    // items the transaction did not decide are logged as errors, on purpose here
    const quiet = createLogger("ledger-test", "error");
    quiet.silent = true;
    try {
      await settleTransaction({ ...deps, db: counting }, { chainId: 97, transactionId }, quiet);
    } finally {
      await counting.$disconnect();
    }
    return statements;
  }

  const amounts = (entries: Array<{ kind: string; amount: { toFixed(): string }; sweepId: string | null; txHash: string | null; dedupeKey: string }>) =>
    entries.map((e) => ({ kind: e.kind, amount: BigInt(e.amount.toFixed()), sweepId: e.sweepId, txHash: e.txHash, dedupeKey: e.dedupeKey }));

  const wakes = (hotWalletId: string) =>
    db.outboxMessage.findMany({ where: { type: "hot_wallet.wake", payload: { path: ["hotWalletId"], equals: hotWalletId } }, select: { exchange: true, routingKey: true, payload: true } });

  async function sweepBatchOf(partner: Partner, specs: Parameters<typeof createSweepBatch>[3], receipt: Parameters<typeof createConfirmedTransaction>[3]) {
    const hotWallet = await createHotWallet(db, partner, { status: "active" });
    const { batchId, sweepIds } = await createSweepBatch(db, partner, hotWallet, specs);
    const transaction = await createConfirmedTransaction(db, partner, batchId, receipt);
    return { hotWallet, batchId, sweepIds, transaction };
  }

  describe("tx.outcome of a sweep batch", () => {
    // A gas price far beyond any chain's, so that a float or a 64-bit step anywhere would lose wei.
    const PRICE = 10n ** 60n + 7n;

    it("sweeps and fails each item with gas shares adding up to gasUsed, fees to the wei, one event per final state", async () => {
      const partner = await createPartner(db);
      // direct gas 18,000 / 32,500 / 45,000 / 9,000 = 104,500 against a receipt of 120,000
      const { hotWallet, sweepIds, transaction } = await sweepBatchOf(
        partner,
        [
          { kind: "repeat", withAuthorization: false, outcome: "swept", amount: 1_000_000n, gasUsed: 18_000n },
          { kind: "first", withAuthorization: true, outcome: "swept", amount: MAX_UINT256, gasUsed: 20_000n },
          { kind: "first_new", withAuthorization: true, outcome: "TokenTransferFailed", amount: 0n, gasUsed: 20_000n },
          { kind: "repeat", withAuthorization: false, outcome: "swept", amount: 5n * 10n ** 17n, gasUsed: 9_000n, native: true },
        ],
        { gasUsed: 120_000n, effectiveGasPrice: PRICE, succeeded: true },
      );

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      // floors 20,669 / 37,320 / 51,674 / 10,334 leave 3 units: remainders 97,000 (item 3), 89,500 (item 0), 67,000 (item 2)
      const shares = [20_670n, 37_320n, 51_675n, 10_335n];
      expect(shares.reduce((a, b) => a + b)).toBe(120_000n);
      // item 0: (0.7 × 50,547 − 20,670) × PRICE = 14,712.9 × 10^60 + 102,990.3, rounded down
      const fee0 = 147_129n * 10n ** 59n + 102_990n;
      // item 3 (native): 10% × 10,335 × PRICE = 1,033.5 × 10^60 + 7,234.5, under the cap of 10,665 × PRICE
      const fee3 = 10_335n * 10n ** 59n + 7_234n;

      const sweeps = await db.sweep.findMany({ where: { id: { in: sweepIds } } });
      const byId = (id: string) => sweeps.find((s) => s.id === id)!;
      const view = (id: string) => {
        const s = byId(id);
        return {
          status: s.status,
          reason: s.reason,
          kind: s.kind,
          txHash: s.txHash,
          gas: s.gas,
          gasCost: s.gasCost && toBigInt(s.gasCost),
          sweptAmount: s.sweptAmount && toBigInt(s.sweptAmount),
          fee: s.fee && toBigInt(s.fee),
          classicGas: s.classicGas,
          rateBps: s.rateBps,
        };
      };
      const hash = transaction.hash;
      expect(view(sweepIds[0]!)).toEqual({ status: "swept", reason: null, kind: "repeat", txHash: hash, gas: shares[0], gasCost: shares[0]! * PRICE, sweptAmount: 1_000_000n, fee: fee0, classicGas: 50_547n, rateBps: 7000 });
      expect(view(sweepIds[1]!)).toEqual({ status: "swept", reason: null, kind: "first", txHash: hash, gas: shares[1], gasCost: shares[1]! * PRICE, sweptAmount: MAX_UINT256, fee: 0n, classicGas: 50_547n, rateBps: 7000 });
      expect(view(sweepIds[2]!)).toEqual({ status: "failed", reason: "TokenTransferFailed", kind: "first_new", txHash: hash, gas: shares[2], gasCost: shares[2]! * PRICE, sweptAmount: null, fee: null, classicGas: null, rateBps: null });
      expect(view(sweepIds[3]!)).toEqual({ status: "swept", reason: null, kind: "repeat", txHash: hash, gas: shares[3], gasCost: shares[3]! * PRICE, sweptAmount: 5n * 10n ** 17n, fee: fee3, classicGas: 21_000n, rateBps: 1000 });

      const before = await written(partner.partnerId);
      expect(amounts(before.ledger)).toEqual([
        { kind: "gas", amount: -120_000n * PRICE, sweepId: null, txHash: hash, dedupeKey: `gas:${hash}` },
        // item 1's fee is zero: nothing moves, nothing is booked
        { kind: "fee", amount: -fee0, sweepId: sweepIds[0], txHash: hash, dedupeKey: `fee:${sweepIds[0]}` },
        { kind: "fee", amount: -fee3, sweepId: sweepIds[3], txHash: hash, dedupeKey: `fee:${sweepIds[3]}` },
      ]);
      expect(before.events.map((e) => [e.type, e.subjectId]).sort()).toEqual(
        [["sweep.swept", sweepIds[0]], ["sweep.swept", sweepIds[1]], ["sweep.failed", sweepIds[2]], ["sweep.swept", sweepIds[3]]].sort(),
      );
      const eventIds = before.events.map((e) => e.id);
      expect(await db.outboxMessage.count({ where: { type: "event.recorded", OR: eventIds.map((eventId) => ({ payload: { path: ["eventId"], equals: eventId } })) } })).toBe(4);
      expect(await wakes(hotWallet.id)).toEqual([{ exchange: messaging.topology.names.workExchange, routingKey: messaging.topology.names.batcher(97), payload: { hotWalletId: hotWallet.id, chainId: 97 } }]);

      // delivered once more, later: nothing changes
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id }, 1);
      expect(await written(partner.partnerId)).toEqual(before);
    });

    it("settles a batch of 120 sweeps swept, failed and back in the queue in as many statements as a batch of 6, each once and exactly", async () => {
      // Carried items of 20,000 gas each against a receipt of exactly their sum: every share is 20,000.
      const carried = { withAuthorization: false, gasUsed: 20_000n };
      // One of each per six sweeps: token, native and unpriced token swept, failed on chain, and not
      // carried (an attempt failure): back in the queue, or failed with its attempts used up.
      const patterns = [
        { item: { ...carried, kind: "repeat", outcome: "swept" }, token: "USDT" },
        { item: { ...carried, kind: "repeat", outcome: "swept", native: true }, token: "tBNB" },
        { item: { ...carried, kind: "repeat", outcome: "swept" }, token: "XYZ" },
        { item: { ...carried, kind: "first_new", outcome: "TokenTransferFailed", amount: 0n }, token: "USDT" },
        { item: { kind: "first", withAuthorization: true, outcome: null, attempts: 1 }, token: "USDT" },
        { item: { kind: "first", withAuthorization: true, outcome: null, attempts: 5 }, token: "USDT" },
      ] as const;
      const sweptAmount = (i: number) => MAX_UINT256 - BigInt(i);

      async function mixedBatch(size: number) {
        const partner = await createPartner(db);
        const specs = Array.from({ length: size }, (_, i) => {
          const { item } = patterns[i % patterns.length]!;
          return item.outcome === "swept" ? { ...item, amount: sweptAmount(i) } : item;
        });
        const carriedCount = BigInt(specs.filter((spec) => spec.outcome !== null).length);
        const batch = await sweepBatchOf(partner, specs, { gasUsed: carriedCount * carried.gasUsed, effectiveGasPrice: PRICE, succeeded: true });
        // a token the tariff has no benchmark for: swept without a fee
        await db.sweep.updateMany({ where: { id: { in: batch.sweepIds.filter((_, i) => patterns[i % patterns.length]!.token === "XYZ") } }, data: { token: "XYZ" } });
        return { partner, ...batch };
      }

      const finalsBefore = await finalSweeps();
      const small = await mixedBatch(patterns.length);
      const { partner, hotWallet, batchId, sweepIds, transaction } = await mixedBatch(120);
      expect(await countedSettlement(transaction.id)).toBe(await countedSettlement(small.transaction.id));

      const hash = transaction.hash;
      const onChain = (kind: string) => ({ txHash: hash, kind, gas: carried.gasUsed, gasCost: carried.gasUsed * PRICE });
      const notOnChain = { txHash: null, kind: null, gas: null, gasCost: null, sweptAmount: null, fee: null, classicGas: null, rateBps: null };
      // token: (0.7 × 50,547 − 20,000) × PRICE = 15,382.9 × 10^60 + 107,680.3; native: capped at (21,000 − 20,000) × PRICE
      const tokenFee = 153_829n * 10n ** 59n + 107_680n;
      const nativeFee = 1_000n * PRICE;
      const expected = (i: number) => {
        switch (i % patterns.length) {
          case 0:
            return { status: "swept", reason: null, nextAttemptAt: null, batchId, ...onChain("repeat"), sweptAmount: sweptAmount(i), fee: tokenFee, classicGas: 50_547n, rateBps: 7000 };
          case 1:
            return { status: "swept", reason: null, nextAttemptAt: null, batchId, ...onChain("repeat"), sweptAmount: sweptAmount(i), fee: nativeFee, classicGas: 21_000n, rateBps: 1000 };
          case 2:
            return { status: "swept", reason: null, nextAttemptAt: null, batchId, ...onChain("repeat"), sweptAmount: sweptAmount(i), fee: 0n, classicGas: null, rateBps: 7000 };
          case 3:
            return { ...notOnChain, status: "failed", reason: "TokenTransferFailed", nextAttemptAt: null, batchId, ...onChain("first_new") };
          case 4:
            return { ...notOnChain, status: "queued", reason: "internal", nextAttemptAt: new Date(NOW.getTime() + 5_000), batchId: null };
          default:
            return { ...notOnChain, status: "failed", reason: "internal", nextAttemptAt: null, batchId };
        }
      };
      const sweeps = await db.sweep.findMany({ where: { id: { in: sweepIds } } });
      const view = (id: string) => {
        const s = sweeps.find((sweep) => sweep.id === id)!;
        return {
          status: s.status,
          reason: s.reason,
          nextAttemptAt: s.nextAttemptAt,
          batchId: s.batchId,
          txHash: s.txHash,
          kind: s.kind,
          gas: s.gas,
          gasCost: s.gasCost && toBigInt(s.gasCost),
          sweptAmount: s.sweptAmount && toBigInt(s.sweptAmount),
          fee: s.fee && toBigInt(s.fee),
          classicGas: s.classicGas,
          rateBps: s.rateBps,
        };
      };
      expect(sweepIds.map(view)).toEqual(sweepIds.map((_, i) => expected(i)));
      expect(sweeps.every((s) => s.updatedAt > s.createdAt)).toBe(true);

      const before = await written(partner.partnerId);
      const feeEntry = (i: number, fee: bigint) => ({ kind: "fee", amount: -fee, sweepId: sweepIds[i], txHash: hash, dedupeKey: `fee:${sweepIds[i]}` });
      const feeEntries = sweepIds.flatMap((_, i) => (i % patterns.length === 0 ? [feeEntry(i, tokenFee)] : i % patterns.length === 1 ? [feeEntry(i, nativeFee)] : []));
      // fees are booked in the order the open sweeps were read, which is not the order they were made in
      const byKey = (a: { dedupeKey: string }, b: { dedupeKey: string }) => a.dedupeKey.localeCompare(b.dedupeKey);
      expect(amounts(before.ledger).sort(byKey)).toEqual([{ kind: "gas", amount: -transaction.gasUsed! * PRICE, sweepId: null, txHash: hash, dedupeKey: `gas:${hash}` }, ...feeEntries].sort(byKey));
      const finalEvents = sweepIds.flatMap((id, i) => {
        const type = expected(i).status;
        return type === "queued" ? [] : [[`sweep.${type}`, id]];
      });
      expect(before.events.map((e) => [e.type, e.subjectId]).sort()).toEqual(finalEvents.sort());
      const eventIds = before.events.map((e) => e.id);
      expect(await db.outboxMessage.count({ where: { type: "event.recorded", OR: eventIds.map((eventId) => ({ payload: { path: ["eventId"], equals: eventId } })) } })).toBe(finalEvents.length);
      expect(await wakes(hotWallet.id)).toHaveLength(1);

      // delivered twice more: nothing changes
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });
      expect(await written(partner.partnerId)).toEqual(before);
      // Both batches' final states, each counted once however often its outcome came.
      expect(await finalSweeps(finalsBefore)).toEqual({ "swept/none": 63, "failed/TokenTransferFailed": 21, "failed/internal": 21 });
    });

    it("computes fees with the partner's agreement where it overrides the configured rate", async () => {
      const partner = await createPartner(db);
      await db.agreement.create({ data: { partnerId: partner.partnerId, chainId: 97, rateBps: 5000 } });
      const { sweepIds, transaction } = await sweepBatchOf(partner, [{ kind: "repeat", withAuthorization: false, outcome: "swept", amount: 7n, gasUsed: 18_000n }], {
        gasUsed: 25_000n,
        effectiveGasPrice: 2_000_000_000n,
        succeeded: true,
      });

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      const sweep = await db.sweep.findUniqueOrThrow({ where: { id: sweepIds[0] } });
      // (0.5 × 50,547 − 25,000) = 273.5 gas at 2 gwei
      expect({ gas: sweep.gas, fee: toBigInt(sweep.fee!), rateBps: sweep.rateBps, classicGas: sweep.classicGas }).toEqual({ gas: 25_000n, fee: 547_000_000_000n, rateBps: 5000, classicGas: 50_547n });
    });

    it("makes a failed receipt an attempt failure transaction_reverted for every item, final when attempts ran out", async () => {
      const partner = await createPartner(db);
      const { hotWallet, batchId, sweepIds, transaction } = await sweepBatchOf(
        partner,
        [
          { kind: "first", withAuthorization: true, outcome: null, attempts: 1 },
          { kind: "repeat", withAuthorization: false, outcome: null, attempts: 5 },
        ],
        { gasUsed: 50_000n, effectiveGasPrice: 3n, succeeded: false },
      );

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      const [retried, failed] = await Promise.all(sweepIds.map((id) => db.sweep.findUniqueOrThrow({ where: { id } })));
      expect(retried).toMatchObject({ status: "queued", reason: "transaction_reverted", attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 5_000), batchId: null, gas: null, txHash: null, fee: null });
      expect(failed).toMatchObject({ status: "failed", reason: "transaction_reverted", attempts: 5, nextAttemptAt: null, batchId, gas: null, fee: null });
      const after = await written(partner.partnerId);
      expect(amounts(after.ledger)).toEqual([{ kind: "gas", amount: -150_000n, sweepId: null, txHash: transaction.hash, dedupeKey: `gas:${transaction.hash}` }]);
      expect(after.events.map((e) => [e.type, e.subjectId])).toEqual([["sweep.failed", sweepIds[1]]]);
      expect(await wakes(hotWallet.id)).toHaveLength(1);
    });
  });

  describe("batch.failed", () => {
    it("puts a sweep batch's items back to queued with the reason and a pause, or failed when attempts ran out", async () => {
      const partner = await createPartner(db);
      const hotWallet = await createHotWallet(db, partner, { status: "active" });
      const { batchId, sweepIds } = await createSweepBatch(db, partner, hotWallet, [
        { kind: "repeat", withAuthorization: false, outcome: null, attempts: 2 },
        { kind: "first_new", withAuthorization: true, outcome: null, attempts: 5 },
      ]);

      await deliver("batch.failed", { batchId, chainId: 97, reason: "insufficient_gas_balance" });

      const [retried, failed] = await Promise.all(sweepIds.map((id) => db.sweep.findUniqueOrThrow({ where: { id } })));
      expect(retried).toMatchObject({ status: "queued", reason: "insufficient_gas_balance", nextAttemptAt: new Date(NOW.getTime() + 10_000), batchId: null });
      expect(failed).toMatchObject({ status: "failed", reason: "insufficient_gas_balance", nextAttemptAt: null, batchId });
      const after = await written(partner.partnerId);
      expect(after.ledger).toEqual([]);
      expect(after.events.map((e) => [e.type, e.subjectId])).toEqual([["sweep.failed", sweepIds[1]]]);
      expect(await wakes(hotWallet.id)).toHaveLength(1);
    });

    it("fails a pending hot wallet with the reason as its error, and ignores a deployment replaced by a later registration", async () => {
      const partner = await createPartner(db);
      const hotWallet = await createHotWallet(db, partner, { status: "pending" });
      const stale = await createDeployBatch(db, partner, hotWallet, "failed");
      await sleep(5);
      const latest = await createDeployBatch(db, partner, hotWallet, "failed");

      await deliver("batch.failed", { batchId: stale.id, chainId: 97, reason: "chain_unavailable" });
      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "pending", error: null });

      await deliver("batch.failed", { batchId: latest.id, chainId: 97, reason: "insufficient_gas_balance" });
      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "failed", error: "insufficient_gas_balance", txHash: null });
      const after = await written(partner.partnerId);
      expect(after.events.map((e) => [e.type, e.subjectId, e.dedupeKey])).toEqual([["hot_wallet.failed", hotWallet.id, `hot_wallet.failed:${hotWallet.id}:${latest.id}`]]);
      expect(after.ledger).toEqual([]);
    });
  });

  describe("tx.outcome of a delegate deployment", () => {
    it("activates the hot wallet when its delegate has code on the chain", async () => {
      const partner = await createPartner(db);
      const address = randomAddress();
      const delegate = delegateAddress(factoryAddress(97), address, partner.gasWallet);
      const hotWallet = await createHotWallet(db, partner, { status: "pending", address, delegate });
      const batch = await createDeployBatch(db, partner, hotWallet, "confirmed");
      const factory = contractAt("DelegateFactory", factoryAddress(97), await chain.provider.getSigner(0));
      const receipt = (await (await factory.getFunction("deploy")(address, partner.gasWallet)).wait())!;
      expect(await chain.provider.getCode(delegate)).not.toBe("0x");
      const transaction = await createConfirmedTransaction(db, partner, batch.id, { hash: receipt.hash, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.gasPrice, succeeded: receipt.status === 1, blockNumber: receipt.blockNumber });

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "active", error: null, txHash: receipt.hash });
      const after = await written(partner.partnerId);
      expect(after.events.map((e) => [e.type, e.subjectId])).toEqual([["hot_wallet.active", hotWallet.id]]);
      expect(amounts(after.ledger)).toEqual([{ kind: "gas", amount: -(receipt.gasUsed * receipt.gasPrice), sweepId: null, txHash: receipt.hash, dedupeKey: `gas:${receipt.hash}` }]);
    });

    it("activates a hot wallet its deployment's given-up nonce failed once the transaction is restored and the delegate has code, once", async () => {
      const partner = await createPartner(db);
      const address = randomAddress();
      const delegate = delegateAddress(factoryAddress(97), address, partner.gasWallet);
      const hotWallet = await createHotWallet(db, partner, { status: "pending", address, delegate });
      const batch = await createDeployBatch(db, partner, hotWallet, "failed");
      const factory = contractAt("DelegateFactory", factoryAddress(97), await chain.provider.getSigner(0));
      const receipt = (await (await factory.getFunction("deploy")(address, partner.gasWallet)).wait())!;
      // Its nonce given up while the transaction was mined: batch.failed fails the hot wallet.
      await deliver("batch.failed", { batchId: batch.id, chainId: 97, reason: "nonce_conflict" });
      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "failed", error: "nonce_conflict" });

      // The chain-sender restores it (its batch confirmed, the transaction with its receipt) and tx.outcome follows, twice.
      await db.batch.update({ where: { id: batch.id }, data: { status: "confirmed", reason: null } });
      const transaction = await createConfirmedTransaction(db, partner, batch.id, { hash: receipt.hash, gasUsed: receipt.gasUsed, effectiveGasPrice: receipt.gasPrice, succeeded: true, blockNumber: receipt.blockNumber });
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "active", error: null, txHash: receipt.hash });
      const after = await written(partner.partnerId);
      expect(after.events.map((e) => [e.type, e.dedupeKey])).toEqual([
        ["hot_wallet.failed", `hot_wallet.failed:${hotWallet.id}:${batch.id}`],
        ["hot_wallet.active", `hot_wallet.active:${hotWallet.id}:${batch.id}`],
      ]);
      expect(amounts(after.ledger)).toEqual([{ kind: "gas", amount: -(receipt.gasUsed * receipt.gasPrice), sweepId: null, txHash: receipt.hash, dedupeKey: `gas:${receipt.hash}` }]);
    });

    it("fails the hot wallet not_deployed when the transaction went through and the delegate has no code", async () => {
      const partner = await createPartner(db);
      const hotWallet = await createHotWallet(db, partner, { status: "pending" });
      const batch = await createDeployBatch(db, partner, hotWallet, "confirmed");
      const transaction = await createConfirmedTransaction(db, partner, batch.id, { gasUsed: 30_000n, effectiveGasPrice: 5n, succeeded: true });

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "failed", error: "not_deployed", txHash: null });
      // Delivered again, the failed hot wallet is checked again (a restored deployment's is activated) and stays failed: still no code.
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });
      expect(await db.hotWallet.findUniqueOrThrow({ where: { id: hotWallet.id } })).toMatchObject({ status: "failed", error: "not_deployed" });
      const after = await written(partner.partnerId);
      expect(after.events.map((e) => [e.type, e.subjectId])).toEqual([["hot_wallet.failed", hotWallet.id]]);
      expect(amounts(after.ledger)).toEqual([{ kind: "gas", amount: -150_000n, sweepId: null, txHash: transaction.hash, dedupeKey: `gas:${transaction.hash}` }]);
    });
  });

  describe("revocation batches", () => {
    // A gas price far beyond any chain's, so that a float or a 64-bit step anywhere would lose wei.
    const PRICE = 10n ** 60n + 7n;

    async function revocationBatchOf(partner: Partner, specs: RevocationSpec[], receipt: Parameters<typeof createConfirmedTransaction>[3]) {
      const { batchId, revocationIds } = await createRevocationBatch(db, partner, specs);
      const transaction = await createConfirmedTransaction(db, partner, batchId, receipt);
      return { batchId, revocationIds, transaction };
    }

    async function revocationsOf(ids: string[]) {
      const rows = await db.revocation.findMany({ where: { id: { in: ids } } });
      return ids.map((id) => {
        const r = rows.find((row) => row.id === id)!;
        return { status: r.status, reason: r.reason, attempts: r.attempts, nextAttemptAt: r.nextAttemptAt, batchId: r.batchId, txHash: r.txHash, gas: r.gas, gasCost: r.gasCost && toBigInt(r.gasCost) };
      });
    }

    const eventsOf = (events: Array<{ type: string; subjectId: string | null }>) => events.map((e) => [e.type, e.subjectId]).sort();
    const announcedCount = (eventIds: string[]) => db.outboxMessage.count({ where: { type: "event.recorded", OR: eventIds.map((eventId) => ({ payload: { path: ["eventId"], equals: eventId } })) } });
    const wakesWritten = () => db.outboxMessage.count({ where: { type: "hot_wallet.wake" } });

    it("tx.outcome revokes and fails each revocation by its item, gas shares adding up to gasUsed and costs to the wei, with the gas entry and no fee", async () => {
      const partner = await createPartner(db);
      const { batchId, revocationIds, transaction } = await revocationBatchOf(
        partner,
        [{ outcome: "revoked", attempts: 2 }, { outcome: "not_applied" }, { outcome: "revoked" }, { outcome: "revoked" }],
        { gasUsed: 100_003n, effectiveGasPrice: PRICE, succeeded: true },
      );
      // the first revocation's earlier attempt went back to the queue with a reason
      await db.revocation.update({ where: { id: revocationIds[0] }, data: { reason: "chain_unavailable" } });
      const wakesBefore = await wakesWritten();

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      // 100,003 over four: 25,000 each and three units left, one each to positions 0, 1 and 2
      const shares = [25_001n, 25_001n, 25_001n, 25_000n];
      expect(shares.reduce((a, b) => a + b)).toBe(transaction.gasUsed);
      const hash = transaction.hash;
      const settled = (i: number, status: string, reason: string | null, attempts = 1) => ({ status, reason, attempts, nextAttemptAt: null, batchId, txHash: hash, gas: shares[i], gasCost: shares[i]! * PRICE });
      expect(await revocationsOf(revocationIds)).toEqual([
        settled(0, "revoked", null, 2),
        settled(1, "failed", "not_applied"),
        settled(2, "revoked", null),
        settled(3, "revoked", null),
      ]);

      const before = await written(partner.partnerId);
      expect(amounts(before.ledger)).toEqual([{ kind: "gas", amount: -100_003n * PRICE, sweepId: null, txHash: hash, dedupeKey: `gas:${hash}` }]);
      expect(eventsOf(before.events)).toEqual(
        eventsOf([
          { type: "revocation.revoked", subjectId: revocationIds[0]! },
          { type: "revocation.failed", subjectId: revocationIds[1]! },
          { type: "revocation.revoked", subjectId: revocationIds[2]! },
          { type: "revocation.revoked", subjectId: revocationIds[3]! },
        ]),
      );
      expect(await announcedCount(before.events.map((e) => e.id))).toBe(4);
      expect(await wakesWritten()).toBe(wakesBefore);

      // delivered once more, later: nothing changes
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id }, 1);
      expect(await written(partner.partnerId)).toEqual(before);
    });

    it("tx.outcome with a failed receipt fails the attempt (transaction_reverted) of each revocation without an outcome: back to queued, or failed when attempts ran out", async () => {
      const partner = await createPartner(db);
      const { batchId, revocationIds, transaction } = await revocationBatchOf(
        partner,
        [
          { outcome: null, attempts: 1 },
          { outcome: null, attempts: 5 },
        ],
        { gasUsed: 46_000n, effectiveGasPrice: 3n, succeeded: false },
      );

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      const notOnChain = { txHash: null, gas: null, gasCost: null };
      expect(await revocationsOf(revocationIds)).toEqual([
        { ...notOnChain, status: "queued", reason: "transaction_reverted", attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 5_000), batchId: null },
        { ...notOnChain, status: "failed", reason: "transaction_reverted", attempts: 5, nextAttemptAt: null, batchId },
      ]);
      const after = await written(partner.partnerId);
      expect(amounts(after.ledger)).toEqual([{ kind: "gas", amount: -138_000n, sweepId: null, txHash: transaction.hash, dedupeKey: `gas:${transaction.hash}` }]);
      expect(eventsOf(after.events)).toEqual([["revocation.failed", revocationIds[1]]]);
    });

    it("settles a batch of 120 revocations revoked, not applied and undecided in as many statements as a batch of 4, each once and exactly", async () => {
      // One of each per four revocations: revoked, not applied, and undecided (an attempt failure,
      // internal): back in the queue, or failed with its attempts used up.
      const patterns: RevocationSpec[] = [{ outcome: "revoked" }, { outcome: "not_applied" }, { outcome: null, attempts: 1 }, { outcome: null, attempts: 5 }];
      const LEFT_OVER = 7n;

      async function mixedBatch(size: number) {
        const partner = await createPartner(db);
        const specs = Array.from({ length: size }, (_, i) => patterns[i % patterns.length]!);
        const carried = BigInt(specs.filter((spec) => spec.outcome !== null).length);
        return { partner, ...(await revocationBatchOf(partner, specs, { gasUsed: carried * 23_000n + LEFT_OVER, effectiveGasPrice: PRICE, succeeded: true })) };
      }

      const small = await mixedBatch(patterns.length);
      const { partner, batchId, revocationIds, transaction } = await mixedBatch(120);
      expect(await countedSettlement(transaction.id)).toBe(await countedSettlement(small.transaction.id));

      const hash = transaction.hash;
      // carried revocations by position: the first LEFT_OVER of them take one unit more
      const carriedIndex = (i: number) => Math.floor(i / patterns.length) * 2 + (i % patterns.length);
      const onChain = (i: number) => {
        const gas = 23_000n + (BigInt(carriedIndex(i)) < LEFT_OVER ? 1n : 0n);
        return { txHash: hash, gas, gasCost: gas * PRICE };
      };
      const notOnChain = { txHash: null, gas: null, gasCost: null };
      const expected = (i: number) => {
        switch (i % patterns.length) {
          case 0:
            return { status: "revoked", reason: null, attempts: 1, nextAttemptAt: null, batchId, ...onChain(i) };
          case 1:
            return { status: "failed", reason: "not_applied", attempts: 1, nextAttemptAt: null, batchId, ...onChain(i) };
          case 2:
            return { ...notOnChain, status: "queued", reason: "internal", attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 5_000), batchId: null };
          default:
            return { ...notOnChain, status: "failed", reason: "internal", attempts: 5, nextAttemptAt: null, batchId };
        }
      };
      const revocations = await revocationsOf(revocationIds);
      expect(revocations).toEqual(revocationIds.map((_, i) => expected(i)));
      expect(revocations.reduce((total, r) => total + (r.gas ?? 0n), 0n)).toBe(transaction.gasUsed);

      const before = await written(partner.partnerId);
      expect(before.revocations.every((r) => r.updatedAt > r.createdAt)).toBe(true);
      expect(amounts(before.ledger)).toEqual([{ kind: "gas", amount: -transaction.gasUsed! * PRICE, sweepId: null, txHash: hash, dedupeKey: `gas:${hash}` }]);
      const finalEvents = revocationIds.flatMap((id, i) => {
        const { status } = expected(i);
        return status === "queued" ? [] : [{ type: `revocation.${status}`, subjectId: id }];
      });
      expect(eventsOf(before.events)).toEqual(eventsOf(finalEvents));
      expect(await announcedCount(before.events.map((e) => e.id))).toBe(finalEvents.length);

      // delivered twice more: nothing changes
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });
      expect(await written(partner.partnerId)).toEqual(before);
    });

    it("batch.failed puts each processing revocation back to queued with the reason and a pause, or failed when attempts ran out", async () => {
      const partner = await createPartner(db);
      const { batchId, revocationIds } = await createRevocationBatch(db, partner, [
        { outcome: null, attempts: 2 },
        { outcome: null, attempts: 5 },
      ]);

      await deliver("batch.failed", { batchId, chainId: 97, reason: "insufficient_gas_balance" });

      const notOnChain = { txHash: null, gas: null, gasCost: null };
      expect(await revocationsOf(revocationIds)).toEqual([
        { ...notOnChain, status: "queued", reason: "insufficient_gas_balance", attempts: 2, nextAttemptAt: new Date(NOW.getTime() + 10_000), batchId: null },
        { ...notOnChain, status: "failed", reason: "insufficient_gas_balance", attempts: 5, nextAttemptAt: null, batchId },
      ]);
      const after = await written(partner.partnerId);
      expect(after.ledger).toEqual([]);
      expect(eventsOf(after.events)).toEqual([["revocation.failed", revocationIds[1]]]);
      expect(await announcedCount(after.events.map((e) => e.id))).toBe(1);

      // delivered once more, later: nothing changes
      await deliver("batch.failed", { batchId, chainId: 97, reason: "chain_unavailable" }, 1);
      expect(await written(partner.partnerId)).toEqual(after);
    });
  });

  describe("wakes for the work that waited for a settlement", () => {
    const queuedSweep = async (hotWallet: { id: string; partnerId: string }, account: string) =>
      (await db.sweep.create({ data: { partnerId: hotWallet.partnerId, chainId: 97, hotWalletId: hotWallet.id, account, token: "USDT", tokenAddress: randomAddress() } })).id;
    const queuedRevocation = async (partner: Partner, account: string) =>
      (await db.revocation.create({ data: { partnerId: partner.partnerId, chainId: 97, account, authorization: { chain_id: 97, address: ZeroAddress, nonce: 1, y_parity: 1, r: "0x01", s: "0x01" } } })).id;
    /** The batcher's wakes written for these hot wallets and revocations, as [type, hot wallet or revocation id] with their route checked. */
    async function wakesFor(hotWalletIds: string[], revocationIds: string[]) {
      const messages = await db.outboxMessage.findMany({
        where: {
          OR: [
            ...hotWalletIds.map((id) => ({ type: "hot_wallet.wake", payload: { path: ["hotWalletId"], equals: id } })),
            ...revocationIds.map((id) => ({ type: "revocation.queued", payload: { path: ["revocationId"], equals: id } })),
          ],
        },
      });
      for (const m of messages) expect({ exchange: m.exchange, routingKey: m.routingKey }).toEqual({ exchange: messaging.topology.names.workExchange, routingKey: messaging.topology.names.batcher(97) });
      return messages.map((m) => {
        const payload = m.payload as { hotWalletId?: string; revocationId?: string };
        return [m.type, payload.hotWalletId ?? payload.revocationId];
      });
    }
    const sorted = (wakes: Array<Array<string | undefined>>) => [...wakes].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));

    it("after a revocation batch: the hot wallets with sweeps of an account whose revocation ended, and the revocation rounds of the partner and of the accounts' other revocations", async () => {
      const partner = await createPartner(db);
      const { batchId, revocationIds } = await createRevocationBatch(db, partner, [{ outcome: "revoked" }, { outcome: "not_applied" }, { outcome: null, attempts: 1 }]);
      const transaction = await createConfirmedTransaction(db, partner, batchId, { gasUsed: 60_000n, effectiveGasPrice: 3n, succeeded: true });
      const [revoked, notApplied, retried] = await Promise.all(revocationIds.map(async (id) => (await db.revocation.findUniqueOrThrow({ where: { id } })).account));
      const others = await createPartner(db);
      // sweeps of the revoked and the not-applied account in two hot wallets; one of the account whose revocation is queued again, which still waits
      const afterRevoked = await createHotWallet(db, others, { status: "active" });
      const afterFailed = await createHotWallet(db, others, { status: "active" });
      const stillWaiting = await createHotWallet(db, others, { status: "active" });
      await queuedSweep(afterRevoked, revoked!);
      await queuedSweep(afterFailed, notApplied!);
      await queuedSweep(stillWaiting, retried!);
      // the partner's next revocations (the oldest names the round), and another partner's revocation of an account in the batch
      const next = await queuedRevocation(partner, randomAddress());
      const nextButOne = await queuedRevocation(partner, randomAddress());
      const ofTheSameAccount = await queuedRevocation(others, retried!);

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      expect(sorted(await wakesFor([afterRevoked.id, afterFailed.id, stillWaiting.id], [next, nextButOne, ofTheSameAccount, revocationIds[2]!]))).toEqual(
        sorted([
          ["hot_wallet.wake", afterRevoked.id],
          ["hot_wallet.wake", afterFailed.id],
          ["revocation.queued", next],
          ["revocation.queued", ofTheSameAccount],
        ]),
      );
      // delivered once more, later: nothing changes, no more wakes
      const before = await written(partner.partnerId);
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id }, 1);
      expect(await written(partner.partnerId)).toEqual(before);
    });

    it("after a failed revocation batch: the revocation rounds waiting for its accounts, not the sweeps behind revocations queued again", async () => {
      const partner = await createPartner(db);
      const { batchId, revocationIds } = await createRevocationBatch(db, partner, [{ outcome: null, attempts: 1 }]);
      const account = (await db.revocation.findUniqueOrThrow({ where: { id: revocationIds[0] } })).account;
      const others = await createPartner(db);
      const behind = await createHotWallet(db, others, { status: "active" });
      await queuedSweep(behind, account);
      const ofTheSameAccount = await queuedRevocation(others, account);

      await deliver("batch.failed", { batchId, chainId: 97, reason: "chain_unavailable" });

      expect(await wakesFor([behind.id], [ofTheSameAccount, revocationIds[0]!])).toEqual([["revocation.queued", ofTheSameAccount]]);
    });

    it("after a sweep batch: its hot wallet, the other hot wallets with sweeps of its addresses, and the revocations behind a sweep that ended", async () => {
      const partner = await createPartner(db);
      const { hotWallet, sweepIds, transaction } = await sweepBatchOf(
        partner,
        [
          { kind: "repeat", withAuthorization: false, outcome: "swept", amount: 5n, gasUsed: 20_000n },
          { kind: "first", withAuthorization: true, outcome: null, attempts: 1 },
        ],
        { gasUsed: 40_000n, effectiveGasPrice: 3n, succeeded: true },
      );
      const [swept, retried] = await Promise.all(sweepIds.map(async (id) => (await db.sweep.findUniqueOrThrow({ where: { id } })).account));
      const others = await createPartner(db);
      // another hot wallet of the chain with sweeps of both addresses, waiting while they were processing
      const elsewhere = await createHotWallet(db, others, { status: "active" });
      await queuedSweep(elsewhere, swept!);
      await queuedSweep(elsewhere, retried!);
      // a sweep of the same hot wallet is woken by the hot wallet's own wake, once
      await queuedSweep(hotWallet, swept!);
      const afterSwept = await queuedRevocation(others, swept!);
      // still behind the sweep queued again
      const afterRetried = await queuedRevocation(partner, retried!);

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      expect(sorted(await wakesFor([hotWallet.id, elsewhere.id], [afterSwept, afterRetried]))).toEqual(
        sorted([
          ["hot_wallet.wake", hotWallet.id],
          ["hot_wallet.wake", elsewhere.id],
          ["revocation.queued", afterSwept],
        ]),
      );
    });
  });

  describe("withdrawal batches", () => {
    // What the chain-sender sends: the fees due less 21,000 gas at the max fee (twice the price here).
    const PRICE = 1_500_000_000n;
    const DUE = 10n ** 16n + 12_345n;
    const VALUE = DUE - 21_000n * 2n * PRICE;

    /** A partner with fees due of DUE, booked as the ledger books sweep fees. */
    async function partnerWithFeesDue() {
      const partner = await createPartner(db);
      for (const [i, fee] of [10n ** 16n, 12_345n].entries()) {
        await db.ledgerEntry.create({ data: { partnerId: partner.partnerId, chainId: 97, kind: "fee", amount: toDecimal(-fee), dedupeKey: `fee:${partner.partnerId}:${i}` } });
      }
      expect((await feeReserve(db, partner.partnerId, 97)).due).toBe(DUE);
      return partner;
    }

    const entriesOf = async (hash: string) =>
      (await db.ledgerEntry.findMany({ where: { txHash: hash }, orderBy: { id: "asc" } })).map((e) => ({ kind: e.kind, amount: toBigInt(e.amount), note: e.note, dedupeKey: e.dedupeKey }));

    it("tx.outcome books one withdrawal entry of the value and the gas, no gas entry, and the fees due drop by exactly that", async () => {
      const partner = await partnerWithFeesDue();
      const treasury = randomAddress();
      const { transaction } = await createWithdrawal(db, partner, { value: VALUE, treasury, receipt: { gasUsed: 21_000n, effectiveGasPrice: PRICE, succeeded: true } });

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      const moved = VALUE + 21_000n * PRICE;
      expect(await entriesOf(transaction.hash)).toEqual([{ kind: "withdrawal", amount: -moved, note: `to ${treasury}`, dedupeKey: `withdrawal:${transaction.hash}` }]);
      expect(await feeReserve(db, partner.partnerId, 97)).toEqual({ accrued: DUE, withdrawn: moved, due: DUE - moved });
      // what is left is the gas reserved at the max fee and not spent
      expect(DUE - moved).toBe(21_000n * PRICE);
      const after = await written(partner.partnerId);
      expect(after.events).toEqual([]);

      // delivered once more, later: nothing changes
      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id }, 1);
      expect(await written(partner.partnerId)).toEqual(after);
      expect((await feeReserve(db, partner.partnerId, 97)).due).toBe(DUE - moved);
    });

    it("tx.outcome with a failed receipt books only its gas, as a gas entry: the fees stay due", async () => {
      const partner = await partnerWithFeesDue();
      const { transaction } = await createWithdrawal(db, partner, { value: VALUE, treasury: randomAddress(), receipt: { gasUsed: 21_000n, effectiveGasPrice: PRICE, succeeded: false } });

      await deliver("tx.outcome", { chainId: 97, transactionId: transaction.id });

      expect(await entriesOf(transaction.hash)).toEqual([{ kind: "gas", amount: -21_000n * PRICE, note: null, dedupeKey: `gas:${transaction.hash}` }]);
      expect(await feeReserve(db, partner.partnerId, 97)).toEqual({ accrued: DUE, withdrawn: 0n, due: DUE });
    });

    it("batch.failed of a withdrawal settles nothing and changes nothing", async () => {
      const partner = await partnerWithFeesDue();
      const batch = await db.batch.create({ data: { chainId: 97, gasWalletId: partner.gasWalletId, purpose: "withdrawal", status: "failed", reason: "insufficient_gas_balance" } });
      const before = await written(partner.partnerId);

      await deliver("batch.failed", { batchId: batch.id, chainId: 97, reason: "insufficient_gas_balance" });

      expect(await written(partner.partnerId)).toEqual(before);
      expect((await feeReserve(db, partner.partnerId, 97)).due).toBe(DUE);
    });
  });

  it("books only the gas of a gap filler, with or without a batch", async () => {
    const partner = await createPartner(db);
    const batch = await db.batch.create({ data: { chainId: 97, gasWalletId: partner.gasWalletId, purpose: "gap_fill", status: "confirmed" } });
    const withBatch = await createConfirmedTransaction(db, partner, batch.id, { gasUsed: 21_000n, effectiveGasPrice: MAX_UINT256 / 10n ** 6n, succeeded: true });
    const alone = await createConfirmedTransaction(db, partner, null, { gasUsed: 21_000n, effectiveGasPrice: 1n, succeeded: true });

    await deliver("tx.outcome", { chainId: 97, transactionId: withBatch.id });
    await deliver("tx.outcome", { chainId: 97, transactionId: alone.id });

    const after = await written(partner.partnerId);
    expect(amounts(after.ledger)).toEqual([
      { kind: "gas", amount: -21_000n * (MAX_UINT256 / 10n ** 6n), sweepId: null, txHash: withBatch.hash, dedupeKey: `gas:${withBatch.hash}` },
      { kind: "gas", amount: -21_000n, sweepId: null, txHash: alone.hash, dedupeKey: `gas:${alone.hash}` },
    ]);
    expect(after.events).toEqual([]);
  });

  it("refuses an outcome of a transaction it does not know, so the message ends in the dead-letter queue", async () => {
    await expect(settleTransaction(deps, { chainId: 97, transactionId: randomUUID() }, logger)).rejects.toThrow(/is unknown/);
  });
});
