import { randomBytes, randomUUID } from "node:crypto";
import { toDecimal, type Db } from "@sweep/db";
import { Wallet } from "ethers";
import type Redis from "ioredis";
import { drainGasWallet } from "./gas-wallet-drain";
import { openTestConnections, testContext } from "./test-support";

const PREFIX = "gas-wallet-drain-test";
const SEPOLIA = 11155111;
const BSC_TESTNET = 97;

describe("gas-wallet drain", () => {
  let connections: Awaited<ReturnType<typeof openTestConnections>>;
  let db: Db;
  let redis: Redis;
  beforeAll(async () => {
    connections = await openTestConnections();
    ({ db, redis } = connections);
  });
  afterAll(() => connections?.close());

  const newGasWallet = Wallet.createRandom().address;

  /** A disabled testnet partner with a gas wallet, and these fees due on BSC testnet. */
  async function retiredPartner(feesDue = 0n) {
    const partner = await db.partner.create({
      data: { name: "retired", environment: "testnet", enabled: false, gasWallet: { create: { address: Wallet.createRandom().address, encryptedKey: "sealed", kekId: "test" } } },
      include: { gasWallet: true },
    });
    if (feesDue > 0n) await db.ledgerEntry.create({ data: { partnerId: partner.id, chainId: BSC_TESTNET, kind: "fee", amount: toDecimal(-feesDue), dedupeKey: `fee:${randomUUID()}` } });
    return { partnerId: partner.id, gasWalletId: partner.gasWallet!.id, gasWallet: partner.gasWallet!.address };
  }

  async function drain(options: { partner: string; to?: string; chain?: string }) {
    const ctx = testContext(db, redis, { AMQP_PREFIX: PREFIX });
    await drainGasWallet(ctx, { to: newGasWallet, ...options });
    return { printed: ctx.out.results[0] as { gas_wallet: string; to: string; drains: Array<{ batch_id: string; chain_id: number; fees_due_kept: string }> }, lines: ctx.out.lines };
  }

  it("writes a drain batch to the address on every chain of the environment, with its batch.ready, keeping the fees due", async () => {
    const retired = await retiredPartner(1_234n);
    const { printed, lines } = await drain({ partner: retired.partnerId });

    expect(printed).toMatchObject({ gas_wallet: retired.gasWallet, to: newGasWallet });
    expect(printed.drains).toEqual([
      { batch_id: expect.any(String), chain_id: SEPOLIA, fees_due_kept: "0" },
      { batch_id: expect.any(String), chain_id: BSC_TESTNET, fees_due_kept: "1234" },
    ]);
    for (const d of printed.drains) {
      expect(await db.batch.findUniqueOrThrow({ where: { id: d.batch_id } })).toMatchObject({ purpose: "withdrawal", status: "open", chainId: d.chain_id, gasWalletId: retired.gasWalletId, drainTo: newGasWallet });
      const ready = await db.outboxMessage.findFirstOrThrow({ where: { type: "batch.ready", payload: { path: ["batchId"], equals: d.batch_id } } });
      expect(ready).toMatchObject({ routingKey: `${PREFIX}.sender.${d.chain_id}`, payload: { batchId: d.batch_id, chainId: d.chain_id } });
    }
    expect(lines).toContain(`drain batch ${printed.drains[1]!.batch_id}: the gas wallet ${retired.gasWallet} of partner ${retired.partnerId} to ${newGasWallet} on chain ${BSC_TESTNET}, keeping 1234 wei of fees due`);
  });

  it("drains the one chain asked", async () => {
    const retired = await retiredPartner();
    const { printed } = await drain({ partner: retired.partnerId, chain: String(BSC_TESTNET) });
    expect(printed.drains.map((d) => d.chain_id)).toEqual([BSC_TESTNET]);
    expect(await db.batch.count({ where: { gasWalletId: retired.gasWalletId } })).toBe(1);
  });

  it.each([
    ["a sweep not final on a chain", async (p: { partnerId: string }) => sweepOf(p.partnerId, "processing"), /chain 97: 1 sweeps and 0 revocations are not final yet/],
    ["a batch of the gas wallet open on a chain", async (p: { gasWalletId: string }) => db.batch.create({ data: { purpose: "sweep", chainId: SEPOLIA, gasWalletId: p.gasWalletId, status: "sent" } }), /chain 11155111: a transaction of the gas wallet is under way/],
    ["an earlier drain under way", async (p: { gasWalletId: string }) => db.batch.create({ data: { purpose: "withdrawal", chainId: BSC_TESTNET, gasWalletId: p.gasWalletId, status: "open", drainTo: newGasWallet } }), /chain 97: a transaction of the gas wallet is under way/],
  ])("refuses every chain while there is %s", async (_what, arrange, message) => {
    const retired = await retiredPartner();
    await arrange(retired);
    const before = await db.batch.count({ where: { gasWalletId: retired.gasWalletId } });
    await expect(drain({ partner: retired.partnerId })).rejects.toThrow(message);
    expect(await db.batch.count({ where: { gasWalletId: retired.gasWalletId } })).toBe(before);
  });

  it.each([
    ["an enabled partner", { enabled: true }, {}, /is enabled: disable it first \(sweepctl partner disable /],
    ["the gas wallet itself as recipient", {}, { toSelf: true }, /is the gas wallet itself/],
    ["a recipient that is no address", {}, { to: "0x1234" }, /--to takes an address, got "0x1234"/],
    ["the zero address", {}, { to: "0x0000000000000000000000000000000000000000" }, /--to cannot be the zero address/],
    ["a chain of another environment", {}, { chain: "56" }, /chain 56 is not a chain of the testnet environment/],
  ])("refuses %s and writes nothing", async (_what, partnerChange, options: { to?: string; chain?: string; toSelf?: boolean }, message) => {
    const retired = await retiredPartner();
    await db.partner.update({ where: { id: retired.partnerId }, data: partnerChange });
    const to = options.toSelf ? retired.gasWallet.toLowerCase() : options.to;
    await expect(drain({ partner: retired.partnerId, ...(to ? { to } : {}), ...(options.chain ? { chain: options.chain } : {}) })).rejects.toThrow(message);
    expect(await db.batch.count({ where: { gasWalletId: retired.gasWalletId } })).toBe(0);
  });

  it("refuses a partner it does not know", async () => {
    await expect(drain({ partner: randomUUID() })).rejects.toThrow(/no partner .* in the testnet environment/);
  });

  async function sweepOf(partnerId: string, status: "queued" | "processing") {
    const hotWallet = await db.hotWallet.create({
      data: { partnerId, chainId: BSC_TESTNET, address: Wallet.createRandom().address, delegate: `0x${randomBytes(20).toString("hex")}`, status: "active" },
    });
    return db.sweep.create({ data: { partnerId, chainId: BSC_TESTNET, hotWalletId: hotWallet.id, account: Wallet.createRandom().address, token: "native", status } });
  }
});
