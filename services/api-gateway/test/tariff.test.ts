import { Tariff } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, createTestPartner, startTestGateway, type TestGateway } from "./support";

describe("GET /v1/tariff", () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  const tariff = async (who: TestPartner, on: TestGateway = gateway) => {
    const res = await request(on.app).get("/v1/tariff").set(who.auth);
    expect(res.status).toBe(200);
    expect(Tariff.parse(res.body)).toEqual(res.body);
    return res.body as Tariff;
  };
  const rates = (body: Tariff) => body.chains.map((c) => [c.chain_id, c.rate_bps, c.rate, c.native_markup_bps, c.native_markup]);

  it("lists every chain of the environment with the configured rates, in bps and percent, and its benchmarks", async () => {
    const body = await tariff(await createTestPartner(gateway.db));
    expect(body.chains.map((c) => [c.chain_id, c.name])).toEqual([
      [SEPOLIA, "Sepolia"],
      [BSC_TESTNET, "BSC Testnet"],
    ]);
    expect(rates(body)).toEqual([
      [SEPOLIA, 7000, "70", 1000, "10"],
      [BSC_TESTNET, 7000, "70", 1000, "10"],
    ]);
    const [sepolia, bsc] = body.chains;
    expect(Object.keys(sepolia!.classic_gas!).sort()).toEqual(["ETH", "USDT"]);
    expect(Object.keys(bsc!.classic_gas!).sort()).toEqual(["USDT", "tBNB"]);
    for (const chain of body.chains) {
      for (const gas of Object.values(chain.classic_gas!)) expect(gas).toEqual({ new: expect.any(Number), existing: expect.any(Number) });
      expect(chain.extra_gas).toEqual({ delegation: expect.any(Number), account: expect.any(Number) });
    }
    // The figures are the configuration's, as the ledger computes fees with them.
    const configured = gateway.chains.find((c) => c.chainId === BSC_TESTNET)!.tariff;
    expect(bsc!.classic_gas!.USDT).toEqual({ new: Number(configured.classicGas!.USDT!.new), existing: Number(configured.classicGas!.USDT!.existing) });
    expect(bsc!.extra_gas).toEqual({ delegation: Number(configured.extraGas!.delegation), account: Number(configured.extraGas!.account) });
  });

  it("takes the configured rates and benchmarks from the environment", async () => {
    const configured = await startTestGateway({ env: { RATE_BPS_97: "1250", NATIVE_MARKUP_BPS_97: "5", CLASSIC_GAS_97_USDT: "60000,40000" } });
    try {
      const body = await tariff(await createTestPartner(configured.db), configured);
      expect(rates(body)).toEqual([
        [SEPOLIA, 7000, "70", 1000, "10"],
        [BSC_TESTNET, 1250, "12.5", 5, "0.05"],
      ]);
      expect(body.chains[1]!.classic_gas!.USDT).toEqual({ new: 60000, existing: 40000 });
    } finally {
      await configured.close();
    }
  });

  it.each<[string, { rateBps: number | null; nativeMarkupBps: number | null }, [number, string, number, string]]>([
    ["both rates", { rateBps: 5000, nativeMarkupBps: 0 }, [5000, "50", 0, "0"]],
    ["the token rate only", { rateBps: 0, nativeMarkupBps: null }, [0, "0", 1000, "10"]],
    ["the native markup only", { rateBps: null, nativeMarkupBps: 2525 }, [7000, "70", 2525, "25.25"]],
    ["neither", { rateBps: null, nativeMarkupBps: null }, [7000, "70", 1000, "10"]],
  ])("applies the rates an agreement sets on its chain: %s", async (_what, agreement, expected) => {
    const partner = await createTestPartner(gateway.db);
    await gateway.db.agreement.create({ data: { partnerId: partner.partnerId, chainId: BSC_TESTNET, ...agreement } });
    expect(rates(await tariff(partner))).toEqual([
      [SEPOLIA, 7000, "70", 1000, "10"],
      [BSC_TESTNET, ...expected],
    ]);
  });

  it("keeps the benchmarks under an agreement, and another account's agreement out", async () => {
    const [mine, theirs] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
    const before = await tariff(mine);
    await gateway.db.agreement.create({ data: { partnerId: theirs.partnerId, chainId: SEPOLIA, rateBps: 1 } });
    await gateway.db.agreement.create({ data: { partnerId: mine.partnerId, chainId: SEPOLIA, rateBps: 100 } });
    const after = await tariff(mine);
    expect(after.chains[0]).toEqual({ ...before.chains[0], rate_bps: 100, rate: "1" });
    expect(after.chains[1]).toEqual(before.chains[1]);
    expect((await tariff(theirs)).chains[0]).toMatchObject({ rate_bps: 1, rate: "0.01" });
  });
});
