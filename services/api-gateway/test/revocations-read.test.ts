import { Revocation } from "@sweep/api-contract";
import { authorizationBody, type TestPartner } from "@sweep/testkit";
import { Wallet, ZeroAddress, type BaseWallet } from "ethers";
import request from "supertest";
import { expectInvalidQuery, idsOfNothing, pagingRefusals, readAllPages, type ListQuery } from "./reading";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, startTestGateway, type TestGateway } from "./support";

describe("reading revocations", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
  });
  afterAll(() => gateway.close());

  /** POSTs a revocation of `deposit` (a new address unless given) and returns it as answered. */
  const create = async (who: TestPartner, fields: { chainId?: number; deposit?: BaseWallet; externalId?: string } = {}) => {
    const deposit = fields.deposit ?? Wallet.createRandom();
    const chainId = fields.chainId ?? SEPOLIA;
    const authorization = authorizationBody(await deposit.authorize({ address: ZeroAddress, nonce: 0, chainId }));
    const body = { chain_id: chainId, account: deposit.address, authorization, ...(fields.externalId && { external_id: fields.externalId }) };
    const res = await request(gateway.app).post("/v1/revocations").set(who.auth).send(body);
    expect(res.status).toBe(202);
    return res.body as Revocation;
  };
  const list = (query: ListQuery, who: TestPartner = partner) => request(gateway.app).get("/v1/revocations").query(query).set(who.auth);
  const ids = (res: { body: { items: Revocation[] } }) => res.body.items.map((r) => r.id);

  describe("GET /v1/revocations/{id}", () => {
    it("returns the revocation as POST answered it", async () => {
      const revocation = await create(partner, { externalId: `read-${Date.now()}` });
      const res = await request(gateway.app).get(`/v1/revocations/${revocation.id}`).set(partner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(revocation);
    });

    it("answers an id in upper case like the id", async () => {
      const revocation = await create(partner);
      const res = await request(gateway.app).get(`/v1/revocations/${revocation.id.toUpperCase()}`).set(partner.auth);
      expect(res.body.id).toBe(revocation.id);
    });

    it("returns a settled revocation with its outcome fields", async () => {
      const revocation = await create(partner);
      const txHash = `0x${"cd".repeat(32)}`;
      await gateway.db.revocation.update({ where: { id: revocation.id }, data: { status: "revoked", attempts: 1, txHash, gas: 21_512n, gasCost: "43024000000000" } });
      const res = await request(gateway.app).get(`/v1/revocations/${revocation.id}`).set(partner.auth);
      expect(res.body).toEqual({ ...revocation, status: "revoked", attempts: 1, tx_hash: txHash, gas: 21512, gas_cost: "43024000000000", updated_at: expect.any(String) });
      expect(Revocation.parse(res.body)).toEqual(res.body);
    });

    it("returns a rejected revocation with its reason", async () => {
      const revocation = await create(partner);
      await gateway.db.revocation.update({ where: { id: revocation.id }, data: { status: "rejected", reason: "not_delegated" } });
      const res = await request(gateway.app).get(`/v1/revocations/${revocation.id}`).set(partner.auth);
      expect(res.body).toMatchObject({ status: "rejected", reason: "not_delegated" });
      expect(res.body).not.toHaveProperty("tx_hash");
    });

    it.each(idsOfNothing)("answers %s with 404 not_found", async (_what, id) => {
      const res = await request(gateway.app).get(`/v1/revocations/${id}`).set(partner.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "not_found", message: "no such revocation in this account" } });
    });

    it("answers a sweep's id with 404: a revocation is looked up among revocations only", async () => {
      const wallet = await hotWalletIn(gateway, partner, "active");
      const sweep = await request(gateway.app).post("/v1/sweeps").set(partner.auth).send({ chain_id: SEPOLIA, hot_wallet: wallet.address, account: Wallet.createRandom().address, token: "native" });
      expect(sweep.status).toBe(202);
      expect((await request(gateway.app).get(`/v1/revocations/${sweep.body.id}`).set(partner.auth)).status).toBe(404);
    });

    it("answers another partner's revocation with 404 and leaves it out of lists", async () => {
      const other = await createTestPartner(gateway.db);
      const theirs = await create(other);
      expect((await request(gateway.app).get(`/v1/revocations/${theirs.id}`).set(partner.auth)).status).toBe(404);
      expect(await readAllPages(list, { limit: 200 })).not.toContain(theirs.id);
      expect(await readAllPages(list, { account: theirs.account })).toEqual([]);
      expect(ids(await list({}, other))).toEqual([theirs.id]);
    });
  });

  describe("GET /v1/revocations", () => {
    it("lists newest first, 50 by default, with filters combined", async () => {
      const reader = await createTestPartner(gateway.db);
      const deposit = Wallet.createRandom();
      const made: Revocation[] = [];
      for (let i = 0; i < 55; i++) made.push(await create(reader, { chainId: i % 2 === 0 ? SEPOLIA : BSC_TESTNET, deposit: i % 3 === 0 ? deposit : undefined }));
      await gateway.db.revocation.update({ where: { id: made[0]!.id }, data: { status: "revoked" } });
      await gateway.db.revocation.update({ where: { id: made[6]!.id }, data: { status: "failed", reason: "not_applied" } });
      const newestFirst = (pick: (i: number) => boolean) => made.flatMap((r, i) => (pick(i) ? [r.id] : [])).reverse();

      const first = await list({}, reader);
      expect(first.status).toBe(200);
      expect(ids(first)).toEqual(newestFirst(() => true).slice(0, 50));
      expect(first.body.next_cursor).toEqual(expect.any(String));
      expect(first.body.items.every((r: Revocation) => Revocation.safeParse(r).success)).toBe(true);

      const byChain = await list({ chain_id: BSC_TESTNET, limit: 200 }, reader);
      expect(ids(byChain)).toEqual(newestFirst((i) => i % 2 === 1));
      expect(byChain.body.next_cursor).toBeNull();

      const byAccount = await list({ account: deposit.address.toLowerCase() }, reader);
      expect(ids(byAccount)).toEqual(newestFirst((i) => i % 3 === 0));

      const combined = await list({ chain_id: SEPOLIA, account: deposit.address.toLowerCase(), status: "queued" }, reader);
      expect(ids(combined)).toEqual(newestFirst((i) => i % 2 === 0 && i % 3 === 0 && i !== 0 && i !== 6));

      expect(ids(await list({ status: "revoked" }, reader))).toEqual([made[0]!.id]);
      expect(ids(await list({ status: "failed", account: deposit.address }, reader))).toEqual([made[6]!.id]);
      expect((await list({ status: "failed", chain_id: BSC_TESTNET }, reader)).body).toEqual({ items: [], next_cursor: null });
    });

    it("pages with limit and cursor: rows added between requests neither shift pages nor repeat", async () => {
      const pager = await createTestPartner(gateway.db);
      const before: string[] = [];
      for (let i = 0; i < 7; i++) before.push((await create(pager)).id);

      const added: string[] = [];
      const seen = await readAllPages((query) => list(query, pager), { limit: 2 }, async () => added.push((await create(pager)).id));

      expect(seen).toEqual([...before].reverse());
      expect(new Set(seen).size).toBe(seen.length);
      // The rows added meanwhile lead the next listing.
      expect(ids(await list({ limit: added.length }, pager))).toEqual([...added].reverse());
    });

    it("pages through a filtered list with the filters repeated", async () => {
      const pager = await createTestPartner(gateway.db);
      const made: Revocation[] = [];
      for (let i = 0; i < 6; i++) made.push(await create(pager, { chainId: i < 3 ? SEPOLIA : BSC_TESTNET }));
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const res = await list({ chain_id: SEPOLIA, limit: 2, ...(cursor && { cursor }) }, pager);
        pages.push(ids(res));
        cursor = res.body.next_cursor;
      } while (cursor);
      expect(pages).toEqual([[made[2]!.id, made[1]!.id], [made[0]!.id]]);
    });

    it("answers an empty account with an empty page and next_cursor null", async () => {
      const empty = await createTestPartner(gateway.db);
      expect((await list({}, empty)).body).toEqual({ items: [], next_cursor: null });
    });

    it.each<[string, ListQuery, RegExp]>([
      ...pagingRefusals,
      ["a cursor of the sweeps list", { cursor: Buffer.from("s1.42").toString("base64url") }, /^cursor /],
      ["a sweep status", { status: "swept" }, /^status must be one of queued, processing, revoked, failed, rejected$/],
      ["a malformed account", { account: "0x1" }, /^account /],
      ["the sweeps' hot_wallet filter", { hot_wallet: "0x52908400098527886E0F7030069857D2E4169EE7" }, /^unknown query parameter hot_wallet$/],
    ])("refuses %s with 400 invalid_query naming the parameter", async (_what, query, message) => {
      expectInvalidQuery(await list(query), message);
    });

    it("refuses a repeated parameter with invalid_query", async () => {
      const address = "0x52908400098527886E0F7030069857D2E4169EE7";
      expectInvalidQuery(await request(gateway.app).get(`/v1/revocations?account=${address}&account=${address}`).set(partner.auth), "account must be given once");
    });
  });
});
