import { Settings } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import { Wallet } from "ethers";
import request from "supertest";
import { SEPOLIA, createTestPartner, hotWalletIn, startTestGateway, type TestGateway } from "./support";

describe("settings", () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  const read = (who: TestPartner) => request(gateway.app).get("/v1/settings").set(who.auth);
  const patch = (who: TestPartner, body: unknown) => request(gateway.app).patch("/v1/settings").set(who.auth).send(body as object);

  it("GET /v1/settings answers keep_one_unit, off by default, and no fee ceilings", async () => {
    const res = await read(await createTestPartner(gateway.db));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keep_one_unit: false, fee_ceilings: [] });
    expect(Settings.parse(res.body)).toEqual(res.body);
  });

  it("PATCH changes what it sends and answers the settings after the change; GET then agrees", async () => {
    const partner = await createTestPartner(gateway.db);
    const on = await patch(partner, { keep_one_unit: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ keep_one_unit: true, fee_ceilings: [] });
    expect((await read(partner)).body).toEqual({ keep_one_unit: true, fee_ceilings: [] });

    const off = await patch(partner, { keep_one_unit: false });
    expect(off.body).toEqual({ keep_one_unit: false, fee_ceilings: [] });
    expect((await read(partner)).body).toEqual({ keep_one_unit: false, fee_ceilings: [] });
  });

  it("PATCH with an empty object changes nothing and answers the settings as they are", async () => {
    const partner = await createTestPartner(gateway.db);
    await patch(partner, { keep_one_unit: true });
    const before = await gateway.db.partner.findUniqueOrThrow({ where: { id: partner.partnerId } });
    const res = await patch(partner, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keep_one_unit: true, fee_ceilings: [] });
    const after = await gateway.db.partner.findUniqueOrThrow({ where: { id: partner.partnerId } });
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("PATCHes of fee ceilings sent at once each answer 200, and the settings are one of them whole", async () => {
    const partner = await createTestPartner(gateway.db);
    const bodies = Array.from({ length: 8 }, (_, i) => ({ fee_ceilings: [{ chain_id: 97, max_fee_per_gas: String(1_000_000_000 + i) }] }));
    const answers = await Promise.all(bodies.map((body) => patch(partner, body)));
    expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 200));
    const now = (await read(partner)).body as { fee_ceilings: unknown };
    expect(bodies.map((body) => body.fee_ceilings)).toContainEqual(now.fee_ceilings);
  });

  it("changes only the calling account", async () => {
    const [mine, theirs] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
    await patch(mine, { keep_one_unit: true });
    expect((await read(theirs)).body).toEqual({ keep_one_unit: false, fee_ceilings: [] });
  });

  it("is the default of a token sweep that does not say, and a sweep that says overrides it", async () => {
    const partner = await createTestPartner(gateway.db);
    const wallet = await hotWalletIn(gateway, partner, "active");
    const sweep = (fields: object = {}) =>
      request(gateway.app).post("/v1/sweeps").set(partner.auth).send({ chain_id: SEPOLIA, hot_wallet: wallet.address, account: Wallet.createRandom().address, token: "USDT", ...fields });
    expect((await sweep()).body).not.toHaveProperty("keep_one_unit");
    await patch(partner, { keep_one_unit: true });
    expect((await sweep()).body).toMatchObject({ keep_one_unit: true });
    expect((await sweep({ keep_one_unit: false })).body).not.toHaveProperty("keep_one_unit");
  });

  it.each<[string, unknown, RegExp]>([
    ["an unknown field", { keep_one_unit: true, webhook: "x" }, /^unknown field webhook$/],
    ["keep_one_unit as a string", { keep_one_unit: "true" }, /^keep_one_unit must be true or false$/],
    ["keep_one_unit as a number", { keep_one_unit: 1 }, /^keep_one_unit must be true or false$/],
    ["keep_one_unit null", { keep_one_unit: null }, /^keep_one_unit must be true or false$/],
    ["an array", [{ keep_one_unit: true }], /^request body must be a JSON object$/],
  ])("PATCH refuses %s with 400 invalid_json and changes nothing", async (_what, body, message) => {
    const partner = await createTestPartner(gateway.db);
    const res = await patch(partner, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_json", message: expect.stringMatching(message) } });
    expect((await read(partner)).body).toEqual({ keep_one_unit: false, fee_ceilings: [] });
  });

  it("PATCH fee_ceilings replaces the account's ceilings, keeps them when omitted, and [] removes them", async () => {
    const partner = await createTestPartner(gateway.db);
    const set = await patch(partner, { fee_ceilings: [{ chain_id: SEPOLIA, max_fee_per_gas: "30000000000" }, { chain_id: 97, max_fee_per_gas: "5000000000" }] });
    expect(set.status).toBe(200);
    const both = [
      { chain_id: 97, max_fee_per_gas: "5000000000" },
      { chain_id: SEPOLIA, max_fee_per_gas: "30000000000" },
    ];
    expect(set.body).toEqual({ keep_one_unit: false, fee_ceilings: both });
    expect((await patch(partner, { keep_one_unit: true })).body).toEqual({ keep_one_unit: true, fee_ceilings: both });
    const rows = await gateway.db.partnerFeeCeiling.findMany({ where: { partnerId: partner.partnerId }, orderBy: { chainId: "asc" } });
    expect(rows.map((r) => [r.chainId, r.maxFeePerGas.toFixed(0)])).toEqual([
      [97, "5000000000"],
      [SEPOLIA, "30000000000"],
    ]);

    expect((await patch(partner, { fee_ceilings: [{ chain_id: 97, max_fee_per_gas: "4000000000" }] })).body.fee_ceilings).toEqual([{ chain_id: 97, max_fee_per_gas: "4000000000" }]);
    expect((await patch(partner, { fee_ceilings: [] })).body).toEqual({ keep_one_unit: true, fee_ceilings: [] });
    expect(await gateway.db.partnerFeeCeiling.count({ where: { partnerId: partner.partnerId } })).toBe(0);
  });

  it.each<[string, unknown, number, string, RegExp]>([
    ["a chain of another environment", { fee_ceilings: [{ chain_id: 1, max_fee_per_gas: "1" }] }, 422, "unknown_chain", /^fee_ceilings\.0\.chain_id must be a chain of this API/],
    ["a chain listed twice", { fee_ceilings: [{ chain_id: 97, max_fee_per_gas: "1" }, { chain_id: 97, max_fee_per_gas: "2" }] }, 422, "unknown_chain", /^fee_ceilings\.1\.chain_id is listed twice/],
    ["a zero max fee", { fee_ceilings: [{ chain_id: 97, max_fee_per_gas: "0" }] }, 422, "invalid_amount", /^fee_ceilings\.0\.max_fee_per_gas must be above zero$/],
    ["a max fee in gwei words", { fee_ceilings: [{ chain_id: 97, max_fee_per_gas: "30 gwei" }] }, 422, "invalid_amount", /^fee_ceilings\.0\.max_fee_per_gas must be a string of decimal digits/],
    ["a max fee as a number", { fee_ceilings: [{ chain_id: 97, max_fee_per_gas: 30000000000 }] }, 400, "invalid_json", /^fee_ceilings\.0\.max_fee_per_gas must be a string$/],
    ["fee_ceilings as an object by chain", { fee_ceilings: { "97": "1" } }, 400, "invalid_json", /^fee_ceilings must be an array$/],
    ["an unknown field in a ceiling", { fee_ceilings: [{ chain_id: 97, max_fee_per_gas: "1", tip: "1" }] }, 400, "invalid_json", /^unknown field fee_ceilings\.0\.tip$/],
  ])("PATCH refuses %s (%i %s) and changes nothing", async (_what, body, status, code, message) => {
    const partner = await createTestPartner(gateway.db);
    await patch(partner, { fee_ceilings: [{ chain_id: SEPOLIA, max_fee_per_gas: "7" }] });
    const res = await patch(partner, { keep_one_unit: true, ...(body as object) });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code, message: expect.stringMatching(message) } });
    expect((await read(partner)).body).toEqual({ keep_one_unit: false, fee_ceilings: [{ chain_id: SEPOLIA, max_fee_per_gas: "7" }] });
  });

  it("PATCH refuses an empty body that claims to be JSON with 400 invalid_json, as one without a Content-Type", async () => {
    const partner = await createTestPartner(gateway.db);
    for (const contentType of ["application/json", undefined]) {
      const req = request(gateway.app).patch("/v1/settings").set(partner.auth);
      const res = await (contentType ? req.set("content-type", contentType) : req).send("");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: "invalid_json", message: "request body must be a JSON object" } });
    }
  });

  it("PATCH refuses a body that is not JSON with 400 invalid_json", async () => {
    const partner = await createTestPartner(gateway.db);
    const res = await request(gateway.app).patch("/v1/settings").set(partner.auth).set("content-type", "application/json").send("{keep_one_unit: true}");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });
});
