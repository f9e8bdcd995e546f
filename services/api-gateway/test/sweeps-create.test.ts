import { Sweep } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import { N as SECP256K1_N, Wallet, type BaseWallet } from "ethers";
import { randomUUID } from "node:crypto";
import { outboxDraft } from "@sweep/messaging";
import request from "supertest";
import { insertSweeps, type SweepDraft, type SweepRow } from "../src/sweeps/sweep-insert";
import { expectMalformedAuthorizationRefused, malformedAuthorizations } from "./authorization-refusals";
import { BSC_TESTNET, SEPOLIA, chainOf, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

describe("POST /v1/sweeps", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let hotWallet: { id: string; address: string; delegate: string };
  let usdt: string;
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
    hotWallet = await hotWalletIn(gateway, partner, "active");
    usdt = chainOf(gateway, SEPOLIA).tokens[0]!.address;
  });
  afterAll(() => gateway.close());

  const post = (body: object, who: TestPartner = partner) => request(gateway.app).post("/v1/sweeps").set(who.auth).send(body);
  const base = () => ({ chain_id: SEPOLIA, hot_wallet: hotWallet.address, account: randomAddress(), token: "USDT" });

  /** A real EIP-7702 authorization in the API's JSON shape. */
  async function authorize(signer: BaseWallet, fields: { address?: string; chainId?: number; nonce?: number } = {}) {
    const auth = await signer.authorize({ address: fields.address ?? hotWallet.delegate, nonce: fields.nonce ?? 0, chainId: fields.chainId ?? SEPOLIA });
    return { chain_id: Number(auth.chainId), address: auth.address, nonce: Number(auth.nonce), y_parity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s };
  }

  it("queues a token sweep with 202, stores its authorization, and writes sweep.queued in the same transaction", async () => {
    const deposit = Wallet.createRandom();
    const authorization = await authorize(deposit, { nonce: 3 });
    const res = await post({ ...base(), account: deposit.address.toLowerCase(), token: "usdt", amount: "1500000", authorization });

    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.any(String),
      chain_id: SEPOLIA,
      hot_wallet: hotWallet.address,
      account: deposit.address,
      token: "USDT",
      token_address: usdt,
      amount: "1500000",
      status: "queued",
      attempts: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Sweep.parse(res.body)).toEqual(res.body);

    const row = await gateway.db.sweep.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ partnerId: partner.partnerId, hotWalletId: hotWallet.id, status: "queued", attempts: 0, keepOneUnit: false, nextAttemptAt: null });
    expect(row.amount?.toFixed(0)).toBe("1500000");
    expect(row.authorization).toEqual({ ...authorization, address: hotWallet.delegate, r: authorization.r.toLowerCase(), s: authorization.s.toLowerCase() });
    const messages = await gateway.db.outboxMessage.findMany({ where: { type: "sweep.queued", payload: { path: ["sweepId"], equals: row.id } } });
    expect(messages).toEqual([
      expect.objectContaining({ exchange: gateway.names.workExchange, routingKey: gateway.names.batcher(SEPOLIA), payload: { sweepId: row.id, chainId: SEPOLIA, hotWalletId: hotWallet.id } }),
    ]);
  });

  it("queues a sweep of the whole balance (amount omitted) without authorization", async () => {
    const res = await post(base());
    expect(res.status).toBe(202);
    expect(res.body).not.toHaveProperty("amount");
    const row = await gateway.db.sweep.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ amount: null, authorization: null });
  });

  it.each([
    ["native", "ETH"],
    ["NATIVE", "ETH"],
    ["eth", "ETH"],
  ])("resolves token %j to the native coin: no token_address, keep_one_unit ignored", async (token, ticker) => {
    const res = await post({ ...base(), token, keep_one_unit: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ token: ticker });
    expect(res.body).not.toHaveProperty("token_address");
    expect(res.body).not.toHaveProperty("keep_one_unit");
    expect(await gateway.db.sweep.findUniqueOrThrow({ where: { id: res.body.id } })).toMatchObject({ token: ticker, tokenAddress: null, keepOneUnit: false });
  });

  it("resolves a listed token by its contract address in any case", async () => {
    const res = await post({ ...base(), token: usdt.toLowerCase() });
    expect(res.body).toMatchObject({ token: "USDT", token_address: usdt });
  });

  it("takes keep_one_unit from the request, else from the account setting", async () => {
    const keeper = await createTestPartner(gateway.db);
    await gateway.db.partner.update({ where: { id: keeper.partnerId }, data: { keepOneUnit: true } });
    const wallet = await hotWalletIn(gateway, keeper, "active");
    const body = { ...base(), hot_wallet: wallet.address };
    expect((await post(body, keeper)).body.keep_one_unit).toBe(true);
    expect((await post({ ...body, keep_one_unit: false }, keeper)).body).not.toHaveProperty("keep_one_unit");
    expect((await post({ ...base(), keep_one_unit: true })).body.keep_one_unit).toBe(true);
    expect((await post(base())).body).not.toHaveProperty("keep_one_unit");
  });

  it("accepts sweeps once a pending hot wallet became active (only active ones are remembered)", async () => {
    const wallet = await hotWalletIn(gateway, partner, "pending");
    const body = { ...base(), hot_wallet: wallet.address.toLowerCase() };
    expect((await post(body)).status).toBe(409);
    await gateway.db.hotWallet.update({ where: { id: wallet.id }, data: { status: "active" } });
    const res = await post(body);
    expect(res.status).toBe(202);
    expect(res.body.hot_wallet).toBe(wallet.address);
    expect((await post({ ...body, hot_wallet: wallet.address.toUpperCase().replace("0X", "0x") })).status).toBe(202);
  });

  it("follows a change of the account's keep_one_unit setting at once", async () => {
    const keeper = await createTestPartner(gateway.db);
    const wallet = await hotWalletIn(gateway, keeper, "active");
    const body = { ...base(), hot_wallet: wallet.address };
    expect((await post(body, keeper)).body).not.toHaveProperty("keep_one_unit");
    await gateway.db.partner.update({ where: { id: keeper.partnerId }, data: { keepOneUnit: true } });
    expect((await post(body, keeper)).body.keep_one_unit).toBe(true);
  });

  describe("refusals", () => {
    it.each<[string, () => object | Promise<object>, number, string, RegExp]>([
      ["a chain outside the environment", () => ({ ...base(), chain_id: 1 }), 422, "unknown_chain", /^chain_id 1 is not supported/],
      ["an external_id over 128 characters", () => ({ ...base(), external_id: "é".repeat(129) }), 422, "invalid_external_id", /^external_id must be 1 to 128 characters$/],
      ["a malformed account", () => ({ ...base(), account: "0xabc" }), 422, "invalid_address", /^account /],
      ["the zero address as account", () => ({ ...base(), account: `0x${"0".repeat(40)}` }), 422, "invalid_address", /^account must not be the zero address$/],
      ["a malformed hot_wallet", () => ({ ...base(), hot_wallet: "hot" }), 422, "invalid_address", /^hot_wallet /],
      ["a token not listed on the chain", () => ({ ...base(), token: "DAI" }), 422, "unknown_token", /^token "DAI" is not listed on chain 11155111/],
      ["another chain's native ticker", () => ({ ...base(), token: "tBNB" }), 422, "unknown_token", /not listed/],
      ["amount 0", () => ({ ...base(), amount: "0" }), 422, "invalid_amount", /^amount must be above zero$/],
      ["an amount past 2^256-1", () => ({ ...base(), amount: (1n << 256n).toString() }), 422, "invalid_amount", /^amount must be at most/],
      ["a fractional amount", () => ({ ...base(), amount: "1.5" }), 422, "invalid_amount", /^amount must be a string of decimal digits/],
      ["a hot wallet not registered", () => ({ ...base(), hot_wallet: randomAddress() }), 422, "unknown_hot_wallet", /is not registered on chain 11155111/],
      ["a hot wallet registered on another chain only", async () => ({ ...base(), chain_id: BSC_TESTNET, token: "USDT" }), 422, "unknown_hot_wallet", /not registered on chain 97/],
      ["a pending hot wallet", async () => ({ ...base(), hot_wallet: (await hotWalletIn(gateway, partner, "pending")).address }), 409, "hot_wallet_not_active", /still being deployed/],
      ["a failed hot wallet", async () => ({ ...base(), hot_wallet: (await hotWalletIn(gateway, partner, "failed")).address }), 409, "hot_wallet_not_active", /register it again/],
      ["another partner's hot wallet", async () => ({ ...base(), hot_wallet: (await hotWalletIn(gateway, await createTestPartner(gateway.db), "active")).address }), 422, "unknown_hot_wallet", /not registered/],
      ["an unknown field", () => ({ ...base(), priority: "high" }), 400, "invalid_json", /^unknown field priority$/],
      ["a missing token", () => ({ ...base(), token: undefined }), 400, "invalid_json", /^token is required$/],
      ["chain_id as a string", () => ({ ...base(), chain_id: "11155111" }), 400, "invalid_json", /^chain_id must be a number$/],
      ["amount as a number", () => ({ ...base(), amount: 1000 }), 400, "invalid_json", /^amount must be a string$/],
    ])("refuses %s", async (_what, body, status, code, message) => {
      const mine = { where: { partnerId: partner.partnerId } };
      const before = await gateway.db.sweep.count(mine);
      const res = await post(await body());
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error: { code, message: expect.stringMatching(message) } });
      expect(await gateway.db.sweep.count(mine)).toBe(before);
    });

    it.each<[string, (deposit: BaseWallet) => Promise<object>, RegExp]>([
      ["signed for chain 0", (d) => authorize(d, { chainId: 0 }), /^invalid authorization: chain 0 /],
      ["signed for another chain", (d) => authorize(d, { chainId: BSC_TESTNET }), /^invalid authorization: chain 97 /],
      ["signed for another delegate", (d) => authorize(d, { address: randomAddress() }), /^invalid authorization: delegates to 0x/],
      [
        "with a high s",
        async (d) => {
          const a = await authorize(d);
          return { ...a, s: `0x${(SECP256K1_N - BigInt(a.s)).toString(16)}`, y_parity: 1 - a.y_parity };
        },
        /^invalid authorization: signature /,
      ],
      ["with r out of range", async (d) => ({ ...(await authorize(d)), r: `0x${SECP256K1_N.toString(16)}` }), /^invalid authorization: signature /],
      ["signed by another key", () => authorize(Wallet.createRandom()), /^signed by 0x[0-9a-fA-F]{40}, not the deposit address /],
      ["with the wrong y_parity", async (d) => {
        const a = await authorize(d);
        return { ...a, y_parity: 1 - a.y_parity };
      }, /^signed by /],
    ])("refuses an authorization %s with 422 invalid_authorization and the spec's prefix", async (_what, make, message) => {
      const deposit = Wallet.createRandom();
      const res = await post({ ...base(), account: deposit.address, authorization: await make(deposit) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: { code: "invalid_authorization", message: expect.stringMatching(message) } });
    });

    it.each(malformedAuthorizations)("refuses an authorization with %s with invalid_authorization, its message without the spec's cause prefixes", async (_what, broken) => {
      const deposit = Wallet.createRandom();
      expectMalformedAuthorizationRefused(await post({ ...base(), account: deposit.address, authorization: { ...(await authorize(deposit)), ...broken } }));
    });

    it("verifies an authorization that is sent even when the address was swept (delegated) before", async () => {
      const deposit = Wallet.createRandom();
      const first = await post({ ...base(), account: deposit.address, authorization: await authorize(deposit) });
      await gateway.db.sweep.update({ where: { id: first.body.id }, data: { status: "swept", kind: "first" } });
      const res = await post({ ...base(), account: deposit.address, authorization: await authorize(Wallet.createRandom()) });
      expect(res.status).toBe(422);
      expect(res.body.error.message).toMatch(/^signed by /);
      expect((await post({ ...base(), account: deposit.address })).status).toBe(202);
    });
  });

  describe("idempotency on external_id", () => {
    it("returns the existing sweep as it is now with 200 and creates nothing", async () => {
      const body = { ...base(), external_id: `order-${Date.now()}` };
      const first = await post(body);
      expect(first.status).toBe(202);
      expect(first.body.external_id).toBe(body.external_id);
      await gateway.db.sweep.update({ where: { id: first.body.id }, data: { status: "processing", attempts: 1 } });

      const again = await post(body);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: first.body.id, status: "processing", attempts: 1 });
      expect(await gateway.db.sweep.count({ where: { partnerId: partner.partnerId, externalId: body.external_id } })).toBe(1);
      expect(await gateway.db.outboxMessage.count({ where: { type: "sweep.queued", payload: { path: ["sweepId"], equals: first.body.id } } })).toBe(1);
    });

    it("keeps external_ids per account: another partner may use the same one", async () => {
      const other = await createTestPartner(gateway.db);
      const otherWallet = await hotWalletIn(gateway, other, "active");
      const externalId = `shared-${Date.now()}`;
      const mine = await post({ ...base(), external_id: externalId });
      const theirs = await post({ ...base(), hot_wallet: otherWallet.address, external_id: externalId }, other);
      expect([mine.status, theirs.status]).toEqual([202, 202]);
      expect(theirs.body.id).not.toBe(mine.body.id);
    });

    it("creates exactly one sweep under 20 concurrent identical requests: one 202, nineteen 200, one id", async () => {
      const body = { ...base(), external_id: `burst-${Date.now()}` };
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(body)));
      expect(answers.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 202]);
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect(await gateway.db.sweep.count({ where: { partnerId: partner.partnerId, externalId: body.external_id } })).toBe(1);
      expect(await gateway.db.outboxMessage.count({ where: { type: "sweep.queued", payload: { path: ["sweepId"], equals: answers[0]!.body.id } } })).toBe(1);
    });
  });

  describe("concurrent requests, whose sweeps share statements", () => {
    it("answers each as it would alone: sweeps of other addresses, several of one address, one of an external_id", async () => {
      const repeated = randomAddress();
      const ordered = { ...base(), external_id: `together-${Date.now()}` };
      const bodies = [
        ...Array.from({ length: 30 }, () => base()),
        ...Array.from({ length: 5 }, () => ({ ...base(), account: repeated })),
        ...Array.from({ length: 5 }, () => ordered),
      ];
      const answers = await Promise.all(bodies.map((body) => post(body)));

      expect(answers.map((r) => r.status).sort()).toEqual([...Array(4).fill(200), ...Array(36).fill(202)]);
      const created = answers.filter((r) => r.status === 202).map((r) => r.body.id as string);
      expect(new Set(created).size).toBe(36);
      answers.forEach((r, i) => expect(r.body.account).toBe(bodies[i]!.account));
      const ofExternalId = answers.slice(35).map((r) => r.body.id);
      expect(new Set(ofExternalId).size).toBe(1);

      const stored = await gateway.db.sweep.findMany({ where: { id: { in: created } }, select: { id: true, account: true, createdAt: true } });
      expect(stored).toHaveLength(36);
      const messages = await gateway.db.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM outbox WHERE type = 'sweep.queued' AND payload ->> 'sweepId' = ANY(${created})`;
      expect(Number(messages[0]!.n)).toBe(36);
      const ofRepeated = stored.filter((sweep) => sweep.account === repeated);
      expect(ofRepeated).toHaveLength(5);
      const inventory = await gateway.db.depositAddress.findMany({ where: { partnerId: partner.partnerId, chainId: SEPOLIA, address: repeated } });
      expect(inventory).toHaveLength(1);
      expect(inventory[0]!.lastActivityAt).toEqual(new Date(Math.max(...ofRepeated.map((sweep) => sweep.createdAt.getTime()))));
    });

    it("inserts many sweeps in one statement as one by one: message, inventory, held authorization, account setting, a taken external_id", async () => {
      const keeper = await createTestPartner(gateway.db);
      await gateway.db.partner.update({ where: { id: keeper.partnerId }, data: { keepOneUnit: true } });
      const wallet = await hotWalletIn(gateway, keeper, "active");
      const signed = { chain_id: SEPOLIA, address: wallet.delegate, nonce: 0, y_parity: 1 as const, r: `0x${"1".repeat(64)}`, s: `0x${"2".repeat(64)}` };
      const held = { ...signed, nonce: 4 };
      const registered = randomAddress();
      await gateway.db.depositAddress.create({ data: { partnerId: keeper.partnerId, chainId: SEPOLIA, address: registered, delegation: "authorized", delegate: wallet.delegate, authorization: held } });
      const taken = `taken-${Date.now()}`;
      expect((await post({ ...base(), hot_wallet: wallet.address, external_id: taken }, keeper)).status).toBe(202);

      const row = (account: string, fields: Partial<SweepDraft> = {}): SweepRow => {
        const draft: SweepDraft = { id: randomUUID(), partnerId: keeper.partnerId, externalId: null, chainId: SEPOLIA, hotWalletId: wallet.id, account, token: "USDT", tokenAddress: usdt, amount: null, keepOneUnit: null, authorization: null, ...fields };
        return { draft, message: outboxDraft("sweep.queued", { sweepId: draft.id, chainId: SEPOLIA, hotWalletId: wallet.id }, gateway.names) };
      };
      const first = randomAddress();
      const rows = [
        row(first, { authorization: signed, amount: 7n }),
        row(registered, { keepOneUnit: false }),
        row(randomAddress(), { externalId: taken }),
        row(randomAddress(), { token: "ETH", tokenAddress: null, keepOneUnit: false, externalId: `fresh-${Date.now()}` }),
      ];
      const outcomes = await insertSweeps(gateway.pool, rows);

      expect(outcomes.map((outcome) => outcome?.keepOneUnit ?? null)).toEqual([true, false, null, false]);
      const sweeps = await gateway.db.sweep.findMany({ where: { id: { in: rows.map((r) => r.draft.id) } } });
      const byId = new Map(sweeps.map((sweep) => [sweep.id, sweep]));
      expect(byId.get(rows[0]!.draft.id)).toMatchObject({ account: first, authorization: signed, keepOneUnit: true, status: "queued" });
      expect(byId.get(rows[0]!.draft.id)?.amount?.toFixed(0)).toBe("7");
      // Without one of its own, the sweep carries the authorization the inventory holds for this delegate.
      expect(byId.get(rows[1]!.draft.id)).toMatchObject({ account: registered, authorization: held, keepOneUnit: false });
      expect(byId.has(rows[2]!.draft.id)).toBe(false);
      expect(byId.get(rows[3]!.draft.id)).toMatchObject({ token: "ETH", tokenAddress: null, authorization: null });
      outcomes.forEach((outcome, i) => {
        if (outcome) expect(outcome.createdAt).toEqual(byId.get(rows[i]!.draft.id)!.createdAt);
      });
      const messages = await gateway.db.$queryRaw<Array<{ id: string }>>`SELECT payload ->> 'sweepId' AS id FROM outbox WHERE payload ->> 'sweepId' = ANY(${rows.map((r) => r.draft.id)})`;
      expect(messages.map((m) => m.id).sort()).toEqual([rows[0]!.draft.id, rows[1]!.draft.id, rows[3]!.draft.id].sort());
      const inventory = await gateway.db.depositAddress.findMany({ where: { partnerId: keeper.partnerId, address: { in: rows.map((r) => r.draft.account) } } });
      const inventoryOf = new Map(inventory.map((entry) => [entry.address, entry]));
      expect(inventoryOf.get(first)).toMatchObject({ delegation: "authorized", delegate: wallet.delegate, authorization: signed, lastActivityAt: byId.get(rows[0]!.draft.id)!.createdAt });
      expect(inventoryOf.get(registered)).toMatchObject({ delegation: "authorized", authorization: held, lastActivityAt: byId.get(rows[1]!.draft.id)!.createdAt });
      expect(inventoryOf.has(rows[2]!.draft.account)).toBe(false);
      expect(inventoryOf.get(rows[3]!.draft.account)).toMatchObject({ delegation: "unknown", authorization: null });
    });
  });
});
