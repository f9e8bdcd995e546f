import { Revocation } from "@sweep/api-contract";
import { authorizationBody, type TestPartner } from "@sweep/testkit";
import { N as SECP256K1_N, Wallet, ZeroAddress, type BaseWallet } from "ethers";
import request from "supertest";
import { expectMalformedAuthorizationRefused, malformedAuthorizations } from "./authorization-refusals";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

describe("POST /v1/revocations", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let wakes = 0;
  beforeAll(async () => {
    gateway = await startTestGateway({ onOutbox: () => wakes++ });
    partner = await createTestPartner(gateway.db);
  });
  afterAll(() => gateway.close());

  const post = (body: object, who: TestPartner = partner) => request(gateway.app).post("/v1/revocations").set(who.auth).send(body);

  /** A real EIP-7702 authorization in the API's JSON shape, of the zero address unless told otherwise. */
  async function authorize(signer: BaseWallet, fields: { address?: string; chainId?: number; nonce?: number } = {}) {
    return authorizationBody(await signer.authorize({ address: fields.address ?? ZeroAddress, nonce: fields.nonce ?? 0, chainId: fields.chainId ?? SEPOLIA }));
  }
  /** A valid request of a new deposit address. */
  async function valid(fields: { chainId?: number; nonce?: number } = {}) {
    const deposit = Wallet.createRandom();
    return { chain_id: fields.chainId ?? SEPOLIA, account: deposit.address, authorization: await authorize(deposit, fields) };
  }
  const queuedMessages = (revocationId: string) => gateway.db.outboxMessage.findMany({ where: { type: "revocation.queued", payload: { path: ["revocationId"], equals: revocationId } } });

  it("queues a revocation with 202, stores its authorization, writes revocation.queued in the same statement and wakes the relay", async () => {
    const deposit = Wallet.createRandom();
    const authorization = await authorize(deposit, { nonce: 4 });
    const wakesBefore = wakes;
    const res = await post({ chain_id: SEPOLIA, account: deposit.address.toLowerCase(), authorization });

    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), chain_id: SEPOLIA, account: deposit.address, status: "queued", attempts: 0, created_at: expect.any(String), updated_at: expect.any(String) });
    expect(Revocation.parse(res.body)).toEqual(res.body);
    expect(wakes).toBe(wakesBefore + 1);

    const row = await gateway.db.revocation.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ partnerId: partner.partnerId, chainId: SEPOLIA, account: deposit.address, externalId: null, status: "queued", attempts: 0, nextAttemptAt: null, batchId: null });
    expect(row.authorization).toEqual({ ...authorization, address: ZeroAddress, r: authorization.r.toLowerCase(), s: authorization.s.toLowerCase() });
    expect(row.createdAt.toISOString()).toBe(res.body.created_at);

    // Routed to the chain's batcher under the test's own topology prefix (AMQP_PREFIX in a deployment).
    expect(await queuedMessages(row.id)).toEqual([
      expect.objectContaining({
        exchange: `${gateway.names.prefix}.sweep.work`,
        routingKey: `${gateway.names.prefix}.batcher.${SEPOLIA}`,
        payload: { revocationId: row.id, chainId: SEPOLIA },
        publishedAt: null,
      }),
    ]);
  });

  it("queues a revocation on each chain of the environment, routed to that chain's batcher", async () => {
    const res = await post(await valid({ chainId: BSC_TESTNET }));
    expect(res.status).toBe(202);
    expect(res.body.chain_id).toBe(BSC_TESTNET);
    expect((await queuedMessages(res.body.id)).map((m) => m.routingKey)).toEqual([gateway.names.batcher(BSC_TESTNET)]);
  });

  it("accepts an external_id of exactly 128 characters (code points) and returns it", async () => {
    const externalId = "é".repeat(127) + `${Date.now() % 10}`;
    const res = await post({ ...(await valid()), external_id: externalId });
    expect(res.status).toBe(202);
    expect(res.body.external_id).toBe(externalId);
  });

  describe("refusals", () => {
    const mine = () => ({ where: { partnerId: partner.partnerId } });
    // Only this gateway writes under its topology prefix, whatever other test files run meanwhile.
    const ours = () => ({ where: { routingKey: { startsWith: `${gateway.names.prefix}.` } } });

    async function expectRefused(body: object, status: number, code: string, message: RegExp) {
      const revocations = await gateway.db.revocation.count(mine());
      const outbox = await gateway.db.outboxMessage.count(ours());
      const wakesBefore = wakes;
      const res = await post(body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error: { code, message: expect.stringMatching(message) } });
      expect(await gateway.db.revocation.count(mine())).toBe(revocations);
      expect(await gateway.db.outboxMessage.count(ours())).toBe(outbox);
      expect(wakes).toBe(wakesBefore);
    }

    it.each<[string, () => Promise<object>, number, string, RegExp]>([
      ["a chain outside the environment", async () => ({ ...(await valid()), chain_id: 1 }), 422, "unknown_chain", /^chain_id 1 is not supported here; use one of /],
      ["chain_id 0", async () => ({ ...(await valid()), chain_id: 0 }), 422, "unknown_chain", /^chain_id /],
      ["an external_id over 128 characters", async () => ({ ...(await valid()), external_id: "é".repeat(129) }), 422, "invalid_external_id", /^external_id must be 1 to 128 characters$/],
      ["an empty external_id", async () => ({ ...(await valid()), external_id: "" }), 422, "invalid_external_id", /^external_id /],
      ["a malformed account", async () => ({ ...(await valid()), account: "0xabc" }), 422, "invalid_address", /^account must be a 0x-address/],
      ["the zero address as account", async () => ({ ...(await valid()), account: ZeroAddress }), 422, "invalid_address", /^account must not be the zero address$/],
      ["an unknown field", async () => ({ ...(await valid()), hot_wallet: randomAddress() }), 400, "invalid_json", /^unknown field hot_wallet$/],
      ["a missing account", async () => ({ ...(await valid()), account: undefined }), 400, "invalid_json", /^account is required$/],
      ["chain_id as a string", async () => ({ ...(await valid()), chain_id: "11155111" }), 400, "invalid_json", /^chain_id must be a number$/],
      ["an authorization that is not an object", async () => ({ ...(await valid()), authorization: "0x05" }), 400, "invalid_json", /^authorization must be an object$/],
    ])("refuses %s", async (_what, body, status, code, message) => {
      await expectRefused(await body(), status, code, message);
    });

    it("checks the chain before the authorization", async () => {
      await expectRefused({ chain_id: 1, account: randomAddress() }, 422, "unknown_chain", /^chain_id 1 /);
    });

    it.each<[string, () => object]>([
      ["missing", () => ({ chain_id: SEPOLIA, account: randomAddress() })],
      ["missing, with an external_id", () => ({ chain_id: SEPOLIA, account: randomAddress(), external_id: `no-auth-${Date.now()}` })],
    ])("refuses an authorization %s with 422 invalid_authorization, 'authorization is required '", async (_what, body) => {
      await expectRefused(body(), 422, "invalid_authorization", /^authorization is required to revoke: sign an authorization of the zero address 0x0{40} /);
    });

    it.each<[string, (deposit: BaseWallet) => Promise<object>, RegExp]>([
      ["signed for chain 0", (d) => authorize(d, { chainId: 0 }), /^invalid authorization: chain 0 \(any chain\) is refused; sign it for chain 11155111$/],
      ["signed for another chain", (d) => authorize(d, { chainId: BSC_TESTNET }), /^invalid authorization: chain 97 is not the request's chain 11155111$/],
      ["signed for a random address", (d) => authorize(d, { address: randomAddress() }), /^invalid authorization: delegates to 0x[0-9a-fA-F]{40}, not to the zero address$/],
      [
        "signed for a hot wallet's delegate (a sweep's authorization)",
        async (d) => authorize(d, { address: (await hotWalletIn(gateway, partner, "active")).delegate }),
        /^invalid authorization: delegates to 0x[0-9a-fA-F]{40}, not to the zero address$/,
      ],
      [
        "with a high s",
        async (d) => {
          const a = await authorize(d);
          return { ...a, s: `0x${(SECP256K1_N - BigInt(a.s)).toString(16)}`, y_parity: 1 - a.y_parity };
        },
        /^invalid authorization: signature s is in the upper half/,
      ],
      ["with r out of range", async (d) => ({ ...(await authorize(d)), r: `0x${SECP256K1_N.toString(16)}` }), /^invalid authorization: signature r is out of range/],
      ["with s = 0", async (d) => ({ ...(await authorize(d)), s: "0x0" }), /^invalid authorization: signature s is out of range/],
      ["signed by another key", () => authorize(Wallet.createRandom()), /^signed by 0x[0-9a-fA-F]{40}, not the deposit address 0x[0-9a-fA-F]{40}$/],
      [
        "with the wrong y_parity",
        async (d) => {
          const a = await authorize(d);
          return { ...a, y_parity: 1 - a.y_parity };
        },
        /^signed by /,
      ],
      ["signed over another nonce", async (d) => ({ ...(await authorize(d, { nonce: 1 })), nonce: 2 }), /^signed by /],
    ])("refuses an authorization %s with 422 invalid_authorization and the spec's prefix", async (_what, make, message) => {
      const deposit = Wallet.createRandom();
      await expectRefused({ chain_id: SEPOLIA, account: deposit.address, authorization: await make(deposit) }, 422, "invalid_authorization", message);
    });

    it.each(malformedAuthorizations)("refuses an authorization with %s with invalid_authorization, its message without the spec's cause prefixes", async (_what, broken) => {
      const deposit = Wallet.createRandom();
      expectMalformedAuthorizationRefused(await post({ chain_id: SEPOLIA, account: deposit.address, authorization: { ...(await authorize(deposit)), ...broken } }));
    });
  });

  describe("idempotency on external_id", () => {
    it("returns the existing revocation as it is now with 200, creates nothing and wakes nothing", async () => {
      const body = { ...(await valid()), external_id: `revoke-${Date.now()}` };
      const first = await post(body);
      expect(first.status).toBe(202);
      expect(first.body.external_id).toBe(body.external_id);
      await gateway.db.revocation.update({ where: { id: first.body.id }, data: { status: "revoked", attempts: 1, txHash: `0x${"ab".repeat(32)}`, gas: 12_345n, gasCost: "24690000000" } });

      const wakesBefore = wakes;
      const again = await post(body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, status: "revoked", attempts: 1, tx_hash: `0x${"ab".repeat(32)}`, gas: 12345, gas_cost: "24690000000", updated_at: expect.any(String) });
      expect(wakes).toBe(wakesBefore);
      expect(await gateway.db.revocation.count({ where: { partnerId: partner.partnerId, externalId: body.external_id } })).toBe(1);
      expect(await queuedMessages(first.body.id)).toHaveLength(1);
    });

    it("keeps external_ids per account: another partner may use the same one", async () => {
      const other = await createTestPartner(gateway.db);
      const externalId = `shared-${Date.now()}`;
      const mine = await post({ ...(await valid()), external_id: externalId });
      const theirs = await post({ ...(await valid()), external_id: externalId }, other);
      expect([mine.status, theirs.status]).toEqual([202, 202]);
      expect(theirs.body.id).not.toBe(mine.body.id);
    });

    it("creates exactly one revocation under 20 concurrent identical requests: one 202, nineteen 200, one id, one message", async () => {
      const body = { ...(await valid()), external_id: `burst-${Date.now()}` };
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(body)));
      expect(answers.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 202]);
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect(answers.every((r) => r.body.status === "queued" && r.body.external_id === body.external_id)).toBe(true);
      expect(await gateway.db.revocation.count({ where: { partnerId: partner.partnerId, externalId: body.external_id } })).toBe(1);
      expect(await queuedMessages(answers[0]!.body.id)).toHaveLength(1);
    });
  });
});
