import { randomUUID } from "node:crypto";
import { Usage, type UsageDay } from "@sweep/api-contract";
import { toDecimal } from "@sweep/db";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

const DAY_MS = 86_400_000;
const todayStart = () => Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** A moment of the UTC day `ago` days before today, `ms` after its midnight. */
const dayAgo = (ago: number, ms = 12 * 3_600_000) => new Date(todayStart() - ago * DAY_MS + ms);
const dateAgo = (ago: number) => dayAgo(ago).toISOString().slice(0, 10);
const LAST_MS = DAY_MS - 1;

const quiet = { sweeps_done: 0, sweeps_failed: 0, sweeps_rejected: 0, revocations_done: 0, gas_spent: "0", fees: "0" };

describe("GET /v1/usage", () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  const usage = (who: TestPartner, query: Record<string, string | number> = {}) => request(gateway.app).get("/v1/usage").query(query).set(who.auth);

  async function sweep(who: TestPartner, hotWalletId: string, chainId: number, status: "queued" | "processing" | "swept" | "failed" | "rejected", createdAt: Date) {
    await gateway.db.sweep.create({ data: { partnerId: who.partnerId, chainId, hotWalletId, account: randomAddress(), token: "USDT", status, createdAt } });
  }
  async function revocation(who: TestPartner, chainId: number, status: "queued" | "revoked" | "failed" | "rejected", createdAt: Date) {
    await gateway.db.revocation.create({ data: { partnerId: who.partnerId, chainId, account: randomAddress(), authorization: {}, status, createdAt } });
  }
  async function entry(who: TestPartner, chainId: number, kind: "gas" | "fee" | "fee_charge" | "fee_credit" | "withdrawal" | "topup", amount: bigint, createdAt: Date, txHash: string | null = null) {
    await gateway.db.ledgerEntry.create({ data: { partnerId: who.partnerId, chainId, kind, amount: toDecimal(amount), txHash, createdAt, dedupeKey: `test:${randomUUID()}` } });
  }

  it("returns the last 30 UTC days by default, today last, oldest first, on every chain, zeros on quiet days", async () => {
    const res = await usage(await createTestPartner(gateway.db));
    expect(res.status).toBe(200);
    expect(Usage.parse(res.body)).toEqual(res.body);
    const expected = Array.from({ length: 30 }, (_, i) => dateAgo(29 - i)).flatMap((date) => [
      { date, chain_id: SEPOLIA, ...quiet },
      { date, chain_id: BSC_TESTNET, ...quiet },
    ]);
    expect(res.body).toEqual({ days: expected });
  });

  it.each([1, 7, 90])("returns %i days on each chain, today included", async (days) => {
    const body = (await usage(await createTestPartner(gateway.db), { days })).body as Usage;
    expect(body.days).toHaveLength(days * 2);
    expect(body.days[0]!.date).toBe(dateAgo(days - 1));
    expect(body.days[body.days.length - 1]!.date).toBe(dateAgo(0));
  });

  describe("with activity", () => {
    let partner: TestPartner;
    const withdrawalTx = `0x${"aa".repeat(32)}`;
    const big = 1n << 255n;

    beforeAll(async () => {
      partner = await createTestPartner(gateway.db);
      const [sepoliaWallet, bscWallet] = await Promise.all([hotWalletIn(gateway, partner, "active", SEPOLIA), hotWalletIn(gateway, partner, "active", BSC_TESTNET)]);

      // Today on Sepolia: every ending, and work still under way that counts nowhere yet.
      for (const status of ["swept", "swept", "failed", "rejected", "queued", "processing"] as const) await sweep(partner, sepoliaWallet.id, SEPOLIA, status, dayAgo(0, 0));
      for (const status of ["revoked", "failed", "rejected", "queued"] as const) await revocation(partner, SEPOLIA, status, dayAgo(0, 0));
      await entry(partner, SEPOLIA, "gas", -100n, dayAgo(0, 0), `0x${"01".repeat(32)}`);
      // A withdrawal carries its own gas: its transaction's gas entry is not spent on the account's work.
      await entry(partner, SEPOLIA, "gas", -50n, dayAgo(0, 0), withdrawalTx);
      await entry(partner, SEPOLIA, "withdrawal", -1_000n, dayAgo(0, 0), withdrawalTx);
      await entry(partner, SEPOLIA, "fee", -30n, dayAgo(0, 0), `0x${"02".repeat(32)}`);
      await entry(partner, SEPOLIA, "fee_charge", -20n, dayAgo(0, 0));
      await entry(partner, SEPOLIA, "fee_credit", 10n, dayAgo(0, 0));
      await entry(partner, SEPOLIA, "topup", 5_000n, dayAgo(0, 0));

      // Two days ago on Sepolia, at the very first and last millisecond of the day; credits beyond the fees.
      await sweep(partner, sepoliaWallet.id, SEPOLIA, "swept", dayAgo(2, 0));
      await entry(partner, SEPOLIA, "gas", -7n, dayAgo(2, LAST_MS), `0x${"03".repeat(32)}`);
      await entry(partner, SEPOLIA, "fee", -5n, dayAgo(2, 0), `0x${"04".repeat(32)}`);
      await entry(partner, SEPOLIA, "fee_credit", 25n, dayAgo(2, LAST_MS));

      // Yesterday on BSC, amounts near 2^256.
      await sweep(partner, bscWallet.id, BSC_TESTNET, "rejected", dayAgo(1));
      await revocation(partner, BSC_TESTNET, "revoked", dayAgo(1, LAST_MS));
      await entry(partner, BSC_TESTNET, "gas", -big, dayAgo(1), `0x${"05".repeat(32)}`);
      await entry(partner, BSC_TESTNET, "gas", -big, dayAgo(1), `0x${"06".repeat(32)}`);
      await entry(partner, BSC_TESTNET, "fee", -big, dayAgo(1), `0x${"07".repeat(32)}`);

      // Three days ago: outside a three-day window, by one millisecond.
      await sweep(partner, sepoliaWallet.id, SEPOLIA, "swept", dayAgo(3, LAST_MS));
      await revocation(partner, BSC_TESTNET, "revoked", dayAgo(3, LAST_MS));
      await entry(partner, SEPOLIA, "gas", -1n, dayAgo(3, LAST_MS), `0x${"08".repeat(32)}`);
      await entry(partner, SEPOLIA, "fee", -1n, dayAgo(3, LAST_MS), `0x${"09".repeat(32)}`);

      // Another account's day.
      const other = await createTestPartner(gateway.db);
      const otherWallet = await hotWalletIn(gateway, other, "active", SEPOLIA);
      await sweep(other, otherWallet.id, SEPOLIA, "swept", dayAgo(0));
      await entry(other, SEPOLIA, "fee", -999n, dayAgo(0), `0x${"10".repeat(32)}`);
    });

    const threeDays = (): UsageDay[] => [
      { date: dateAgo(2), chain_id: SEPOLIA, ...quiet, sweeps_done: 1, gas_spent: "7", fees: "-20" },
      { date: dateAgo(2), chain_id: BSC_TESTNET, ...quiet },
      { date: dateAgo(1), chain_id: SEPOLIA, ...quiet },
      { date: dateAgo(1), chain_id: BSC_TESTNET, ...quiet, sweeps_rejected: 1, revocations_done: 1, gas_spent: (2n * big).toString(), fees: big.toString() },
      { date: dateAgo(0), chain_id: SEPOLIA, sweeps_done: 2, sweeps_failed: 1, sweeps_rejected: 1, revocations_done: 1, gas_spent: "100", fees: "40" },
      { date: dateAgo(0), chain_id: BSC_TESTNET, ...quiet },
    ];

    it("counts each day and chain: work by how it ended on its creation day, gas without withdrawals, fees net of credits (below zero when credits exceed them)", async () => {
      const res = await usage(partner, { days: 3 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ days: threeDays() });
      expect(Usage.parse(res.body)).toEqual(res.body);
    });

    it("shows only chain_id when given", async () => {
      const res = await usage(partner, { days: 3, chain_id: BSC_TESTNET });
      expect(res.body).toEqual({ days: threeDays().filter((d) => d.chain_id === BSC_TESTNET) });
    });

    it("counts the fourth day back once the window reaches it", async () => {
      const res = await usage(partner, { days: 4, chain_id: SEPOLIA });
      expect(res.body.days[0]).toEqual({ date: dateAgo(3), chain_id: SEPOLIA, ...quiet, sweeps_done: 1, gas_spent: "1", fees: "1" });
      expect(res.body.days.slice(1)).toEqual(threeDays().filter((d) => d.chain_id === SEPOLIA));
    });
  });

  it.each<[string, Record<string, string | number>, RegExp]>([
    ["days 0", { days: 0 }, /^days must be an integer from 1 to 90$/],
    ["days 91", { days: 91 }, /^days must be an integer from 1 to 90$/],
    ["days -1", { days: -1 }, /^days must be an integer from 1 to 90$/],
    ["days 1.5", { days: "1.5" }, /^days must be an integer from 1 to 90$/],
    ["days abc", { days: "abc" }, /^days must be an integer from 1 to 90$/],
    ["days empty", { days: "" }, /^days must be an integer from 1 to 90$/],
    ["a chain outside the environment", { chain_id: 1 }, /^chain_id 1 is not a chain of this API; use one of 11155111, 97$/],
    ["a malformed chain_id", { chain_id: "sepolia" }, /^chain_id must be a chain id$/],
    ["an unknown parameter", { limit: 10 }, /^unknown query parameter limit$/],
  ])("refuses %s with 400 invalid_query naming the parameter", async (_what, query, message) => {
    const res = await usage(await createTestPartner(gateway.db), query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_query", message: expect.stringMatching(message) } });
  });

  it("refuses a repeated parameter with invalid_query", async () => {
    const res = await request(gateway.app).get("/v1/usage?days=3&days=4").set((await createTestPartner(gateway.db)).auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_query", message: "days must be given once" });
  });
});
