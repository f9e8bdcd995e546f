import { HotWallet } from "@sweep/api-contract";
import { delegateAddress } from "@sweep/contracts";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, chainOf, createTestPartner, randomAddress, startTestGateway, type TestGateway } from "./support";

describe("hot wallets", () => {
  let gateway: TestGateway;
  beforeAll(async () => (gateway = await startTestGateway()));
  afterAll(() => gateway.close());

  const deployMessages = (hotWalletId: string) => gateway.db.outboxMessage.findMany({ where: { type: "hot_wallet.deploy", payload: { path: ["hotWalletId"], equals: hotWalletId } } });

  it("registers a hot wallet as pending with its delegate known at once, and queues its deployment in the same transaction", async () => {
    const partner = await createTestPartner(gateway.db);
    const address = randomAddress();
    const res = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send({ chain_id: SEPOLIA, address: address.toLowerCase() });

    expect(res.status).toBe(202);
    const delegate = delegateAddress(chainOf(gateway, SEPOLIA).factory, address, partner.gasWallet);
    expect(res.body).toEqual({ chain_id: SEPOLIA, address, delegate, status: "pending", created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect(HotWallet.parse(res.body)).toEqual(res.body);

    const row = await gateway.db.hotWallet.findFirstOrThrow({ where: { partnerId: partner.partnerId, address } });
    expect(row).toMatchObject({ chainId: SEPOLIA, delegate, status: "pending", attempts: 0 });
    const [message, ...more] = await deployMessages(row.id);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ exchange: gateway.names.workExchange, routingKey: gateway.names.sender(SEPOLIA), payload: { hotWalletId: row.id, chainId: SEPOLIA }, publishedAt: null });
  });

  it("returns a pending hot wallet again with 202 and queues nothing more", async () => {
    const partner = await createTestPartner(gateway.db);
    const body = { chain_id: BSC_TESTNET, address: randomAddress() };
    const first = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body);
    const again = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send({ ...body, address: body.address.toUpperCase().replace("0X", "0x") });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const row = await gateway.db.hotWallet.findFirstOrThrow({ where: { partnerId: partner.partnerId } });
    expect(await deployMessages(row.id)).toHaveLength(1);
  });

  it("answers an active hot wallet with 200", async () => {
    const partner = await createTestPartner(gateway.db);
    const body = { chain_id: SEPOLIA, address: randomAddress() };
    await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body);
    const row = await gateway.db.hotWallet.update({ where: { partnerId_chainId_address: { partnerId: partner.partnerId, ...{ chainId: SEPOLIA, address: body.address } } }, data: { status: "active", txHash: `0x${"1".repeat(64)}` } });
    const res = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "active", tx_hash: row.txHash });
    expect(await deployMessages(row.id)).toHaveLength(1);
  });

  it("restarts a failed deployment: pending again, error, attempts and tx_hash cleared, deployment queued again", async () => {
    const partner = await createTestPartner(gateway.db);
    const body = { chain_id: SEPOLIA, address: randomAddress() };
    await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body);
    const where = { partnerId_chainId_address: { partnerId: partner.partnerId, chainId: SEPOLIA, address: body.address } };
    await gateway.db.hotWallet.update({ where, data: { status: "failed", error: "insufficient_gas_balance", attempts: 3, txHash: `0x${"2".repeat(64)}` } });

    const failed = await request(gateway.app).get("/v1/hot-wallets").set(partner.auth);
    expect(failed.body.hot_wallets[0]).toMatchObject({ status: "failed", error: "insufficient_gas_balance" });

    const res = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("pending");
    expect(res.body).not.toHaveProperty("error");
    expect(res.body).not.toHaveProperty("tx_hash");
    const row = await gateway.db.hotWallet.findUniqueOrThrow({ where });
    expect(row).toMatchObject({ status: "pending", error: null, attempts: 0, txHash: null });
    expect(await deployMessages(row.id)).toHaveLength(2);
  });

  it("registers one hot wallet under concurrent identical registrations, with one deployment", async () => {
    const partner = await createTestPartner(gateway.db);
    const body = { chain_id: SEPOLIA, address: randomAddress() };
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(202));
    const rows = await gateway.db.hotWallet.findMany({ where: { partnerId: partner.partnerId } });
    expect(rows).toHaveLength(1);
    expect(await deployMessages(rows[0]!.id)).toHaveLength(1);
  });

  it("lists the partner's hot wallets on every chain, and no one else's", async () => {
    const partner = await createTestPartner(gateway.db);
    const other = await createTestPartner(gateway.db);
    const mine = [
      { chain_id: SEPOLIA, address: randomAddress() },
      { chain_id: BSC_TESTNET, address: randomAddress() },
    ];
    for (const body of mine) await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body);
    await request(gateway.app).post("/v1/hot-wallets").set(other.auth).send({ chain_id: SEPOLIA, address: randomAddress() });

    const res = await request(gateway.app).get("/v1/hot-wallets").set(partner.auth);
    expect(res.status).toBe(200);
    expect(res.body.hot_wallets.map((w: HotWallet) => [w.chain_id, w.address])).toEqual(mine.map((b) => [b.chain_id, b.address]));
  });

  it.each<[string, unknown, number, string, RegExp]>([
    ["a chain outside the environment", { chain_id: 1, address: "0x52908400098527886E0F7030069857D2E4169EE7" }, 422, "unknown_chain", /chain_id 1 is not supported/],
    ["chain_id 0", { chain_id: 0, address: "0x52908400098527886E0F7030069857D2E4169EE7" }, 422, "unknown_chain", /^chain_id must be an integer chain id of at least 1$/],
    ["a malformed address", { chain_id: 97, address: "0x5290" }, 422, "invalid_address", /^address /],
    ["the zero address", { chain_id: 97, address: `0x${"0".repeat(40)}` }, 422, "invalid_address", /zero address/],
    ["chain_id as a string", { chain_id: "97", address: "0x52908400098527886E0F7030069857D2E4169EE7" }, 400, "invalid_json", /^chain_id must be a number$/],
    ["a missing address", { chain_id: 97 }, 400, "invalid_json", /^address is required$/],
    ["an unknown field", { chain_id: 97, address: "0x52908400098527886E0F7030069857D2E4169EE7", label: "main" }, 400, "invalid_json", /^unknown field label$/],
  ])("refuses %s", async (_what, body, status, code, message) => {
    const partner = await createTestPartner(gateway.db);
    const res = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).send(body as object);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code, message: expect.stringMatching(message) } });
    expect(await gateway.db.hotWallet.count({ where: { partnerId: partner.partnerId } })).toBe(0);
  });

  it("refuses a body that is not JSON with 400 invalid_json", async () => {
    const partner = await createTestPartner(gateway.db);
    const res = await request(gateway.app).post("/v1/hot-wallets").set(partner.auth).set("content-type", "text/plain").send("chain_id=97");
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_json", message: "request body must be a JSON object" });
  });
});
