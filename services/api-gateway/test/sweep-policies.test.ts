import { SweepPolicy, SweepPolicyList } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

// A partner sets its sweep policies, one per chain and token, and reads them back; what is wrong
// is refused with the spec's codes, naming the field.

describe("sweep policies", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let hotWallet: { address: string };
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
    hotWallet = await hotWalletIn(gateway, partner, "active", BSC_TESTNET);
  });
  afterAll(() => gateway.close());

  const put = (body: object, who: TestPartner = partner) => request(gateway.app).put("/v1/sweep-policies").set(who.auth).send(body);
  const list = (who: TestPartner = partner) => request(gateway.app).get("/v1/sweep-policies").set(who.auth);

  it("sets a token's policy with every rule and a daily window, and the native coin's with the defaults", async () => {
    const usdt = await put({
      chain_id: BSC_TESTNET,
      token: "usdt",
      hot_wallet: hotWallet.address.toLowerCase(),
      min_balance: "5000000000000000000",
      max_fee_per_gas: "3000000000",
      max_cost_bps: 150,
      token_value_wei: "1600000000000000",
      schedule: "daily",
      at: "02:30",
    });
    expect(usdt.status).toBe(200);
    expect(SweepPolicy.parse(usdt.body)).toEqual(usdt.body);
    expect(usdt.body).toEqual({
      chain_id: BSC_TESTNET,
      token: "USDT",
      token_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      hot_wallet: hotWallet.address,
      enabled: true,
      min_balance: "5000000000000000000",
      max_fee_per_gas: "3000000000",
      max_cost_bps: 150,
      token_value_wei: "1600000000000000",
      schedule: "daily",
      at: "02:30",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const native = await put({ chain_id: BSC_TESTNET, token: "native", hot_wallet: hotWallet.address, max_cost_bps: 100 });
    expect(native.body).toEqual({
      chain_id: BSC_TESTNET,
      token: "tBNB",
      hot_wallet: hotWallet.address,
      enabled: true,
      min_balance: "0",
      max_cost_bps: 100,
      schedule: "asap",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await gateway.db.sweepPolicy.findFirstOrThrow({ where: { partnerId: partner.partnerId, token: "USDT" } });
    expect([stored.tokenDecimals, stored.scheduleAt, stored.nextRunAt]).toEqual([18, 150, null]);
  });

  it("replaces a policy set again, keeping one per chain and token, and lists the account's own", async () => {
    const again = await put({ chain_id: BSC_TESTNET, token: "USDT", hot_wallet: hotWallet.address, enabled: false, schedule: "hourly", at: ":05" });
    expect(again.body).toMatchObject({ token: "USDT", enabled: false, min_balance: "0", schedule: "hourly", at: ":05" });
    expect(again.body).not.toHaveProperty("max_fee_per_gas");
    const listed = await list();
    expect(SweepPolicyList.parse(listed.body)).toEqual(listed.body);
    expect(listed.body.items.map((p: SweepPolicy) => [p.chain_id, p.token, p.enabled])).toEqual([
      [BSC_TESTNET, "USDT", false],
      [BSC_TESTNET, "tBNB", true],
    ]);
    expect((await list(await createTestPartner(gateway.db))).body).toEqual({ items: [] });
  });

  it("sets one policy when the same PUT arrives many times at once", async () => {
    const body = { chain_id: BSC_TESTNET, token: "native", hot_wallet: hotWallet.address, min_balance: "7" };
    const answers = await Promise.all(Array.from({ length: 30 }, () => put(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(await gateway.db.sweepPolicy.count({ where: { partnerId: partner.partnerId, chainId: BSC_TESTNET, token: "tBNB" } })).toBe(1);
  });

  it.each<[string, object, number, string, string]>([
    ["a chain not served", { chain_id: 5 }, 422, "unknown_chain", "chain_id"],
    ["a token not listed", { token: "DOGE" }, 422, "unknown_token", "DOGE"],
    ["a hot wallet not registered on the chain", { hot_wallet: randomAddress() }, 422, "unknown_hot_wallet", "not registered on chain 97"],
    ["a malformed hot wallet", { hot_wallet: "0x12" }, 422, "invalid_address", "hot_wallet"],
    ["a minimum that is not a whole number", { min_balance: "1.5" }, 422, "invalid_amount", "min_balance"],
    ["a max gas price of 0", { max_fee_per_gas: "0" }, 422, "invalid_amount", "max_fee_per_gas"],
    ["a cost rule above 100%", { max_cost_bps: 10_001 }, 422, "invalid_amount", "max_cost_bps"],
    ["a token's cost rule without its value", { max_cost_bps: 100 }, 422, "invalid_amount", "token_value_wei"],
    ["a schedule that is none", { schedule: "weekly" }, 400, "invalid_json", "schedule"],
    ["a daily time that is no time", { schedule: "daily", at: "25:00" }, 400, "invalid_json", "at"],
    ["an hourly schedule given a time of day", { schedule: "hourly", at: "02:30" }, 400, "invalid_json", "at must be :MM"],
    ["a daily schedule given a minute", { schedule: "daily", at: ":30" }, 400, "invalid_json", "at must be HH:MM"],
    ["a time for asap", { at: ":30" }, 400, "invalid_json", "asap"],
    ["an unknown field", { threshold: "1" }, 400, "invalid_json", "threshold"],
  ])("refuses %s", async (_, fields, status, code, named) => {
    const res = await put({ chain_id: BSC_TESTNET, token: "USDT", hot_wallet: hotWallet.address, ...fields });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toContain(named);
  });

  it("refuses a hot wallet of another chain", async () => {
    const sepolia = await hotWalletIn(gateway, partner, "active", SEPOLIA);
    const res = await put({ chain_id: BSC_TESTNET, token: "native", hot_wallet: sepolia.address });
    expect([res.status, res.body.error.code]).toEqual([422, "unknown_hot_wallet"]);
  });
});
