import { delegateAddress } from "@sweep/contracts";
import request from "supertest";
import { DEFAULT_MAX_HOT_WALLETS_PER_CHAIN } from "../src/hot-wallets/routes";
import { BSC_TESTNET, SEPOLIA, chainOf, createTestPartner, randomAddress, startTestGateway, type TestGateway } from "./support";

describe("the maximum of hot wallets per partner and chain", () => {
  let gateway: TestGateway;
  beforeAll(async () => (gateway = await startTestGateway()));
  afterAll(() => gateway.close());

  const max = DEFAULT_MAX_HOT_WALLETS_PER_CHAIN;

  /** A partner with `count` hot wallets on Sepolia, stored as registration stores them. */
  async function partnerWith(count: number) {
    const partner = await createTestPartner(gateway.db);
    const factory = chainOf(gateway, SEPOLIA).factory;
    const addresses = Array.from({ length: count }, () => randomAddress());
    await gateway.db.hotWallet.createMany({
      data: addresses.map((address, i) => ({
        partnerId: partner.partnerId,
        chainId: SEPOLIA,
        address,
        delegate: delegateAddress(factory, address, partner.gasWallet),
        // Every status counts: a failed one is still registered, and can be restarted.
        status: i % 3 === 0 ? ("failed" as const) : ("active" as const),
      })),
    });
    return { partner, addresses };
  }

  const register = (auth: Record<string, string>, chainId: number, address: string) => request(gateway.app).post("/v1/hot-wallets").set(auth).send({ chain_id: chainId, address });

  it("takes the last one, then refuses a new one with 422 too_many_hot_wallets, still answering a registered one and other chains", async () => {
    const { partner, addresses } = await partnerWith(max - 1);
    expect((await register(partner.auth, SEPOLIA, randomAddress())).status).toBe(202);

    const refused = await register(partner.auth, SEPOLIA, randomAddress());
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error: { code: "too_many_hot_wallets", message: `the account has ${max} hot wallets on chain ${SEPOLIA}, the most it may register there; a registered one can be registered again` },
    });
    expect(await gateway.db.hotWallet.count({ where: { partnerId: partner.partnerId, chainId: SEPOLIA } })).toBe(max);

    // Registered ones answer as before: active 200, failed restarted 202.
    expect((await register(partner.auth, SEPOLIA, addresses[1]!)).status).toBe(200);
    expect((await register(partner.auth, SEPOLIA, addresses[0]!)).status).toBe(202);
    expect((await register(partner.auth, BSC_TESTNET, randomAddress())).status).toBe(202);

    const list = await request(gateway.app).get("/v1/hot-wallets").set(partner.auth);
    expect(list.status).toBe(200);
    expect(list.body.hot_wallets).toHaveLength(max + 1);
  });

  it("lets concurrent registrations past the maximum by none", async () => {
    const { partner } = await partnerWith(max - 2);
    const answers = await Promise.all(Array.from({ length: 6 }, () => register(partner.auth, SEPOLIA, randomAddress())));
    expect(answers.map((res) => res.status).sort()).toEqual([202, 202, 422, 422, 422, 422]);
    expect(await gateway.db.hotWallet.count({ where: { partnerId: partner.partnerId, chainId: SEPOLIA } })).toBe(max);
  });
});
