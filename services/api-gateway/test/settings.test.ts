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

  it("GET /v1/settings answers keep_one_unit, off by default", async () => {
    const res = await read(await createTestPartner(gateway.db));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keep_one_unit: false });
    expect(Settings.parse(res.body)).toEqual(res.body);
  });

  it("PATCH changes what it sends and answers the settings after the change; GET then agrees", async () => {
    const partner = await createTestPartner(gateway.db);
    const on = await patch(partner, { keep_one_unit: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ keep_one_unit: true });
    expect((await read(partner)).body).toEqual({ keep_one_unit: true });

    const off = await patch(partner, { keep_one_unit: false });
    expect(off.body).toEqual({ keep_one_unit: false });
    expect((await read(partner)).body).toEqual({ keep_one_unit: false });
  });

  it("PATCH with an empty object changes nothing and answers the settings as they are", async () => {
    const partner = await createTestPartner(gateway.db);
    await patch(partner, { keep_one_unit: true });
    const before = await gateway.db.partner.findUniqueOrThrow({ where: { id: partner.partnerId } });
    const res = await patch(partner, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keep_one_unit: true });
    const after = await gateway.db.partner.findUniqueOrThrow({ where: { id: partner.partnerId } });
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("changes only the calling account", async () => {
    const [mine, theirs] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
    await patch(mine, { keep_one_unit: true });
    expect((await read(theirs)).body).toEqual({ keep_one_unit: false });
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
    expect((await read(partner)).body).toEqual({ keep_one_unit: false });
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
