import type { Sweep } from "@sweep/api-contract";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { expectInvalidQuery, idsOfNothing, pagingRefusals, readAllPages, type ListQuery } from "./reading";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

describe("reading sweeps", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let sepoliaWallet: { address: string };
  let bscWallet: { address: string };
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
    sepoliaWallet = await hotWalletIn(gateway, partner, "active", SEPOLIA);
    bscWallet = await hotWalletIn(gateway, partner, "active", BSC_TESTNET);
  });
  afterAll(() => gateway.close());

  const create = async (who: TestPartner, body: object) => {
    const res = await request(gateway.app).post("/v1/sweeps").set(who.auth).send(body);
    expect(res.status).toBe(202);
    return res.body as Sweep;
  };
  const sweepOn = (chainId: number, fields: object = {}) =>
    create(partner, { chain_id: chainId, hot_wallet: chainId === SEPOLIA ? sepoliaWallet.address : bscWallet.address, account: randomAddress(), token: "native", ...fields });
  const list = (query: ListQuery, who: TestPartner = partner) => request(gateway.app).get("/v1/sweeps").query(query).set(who.auth);

  describe("GET /v1/sweeps/{id}", () => {
    it("returns the sweep as POST answered it", async () => {
      const sweep = await sweepOn(SEPOLIA, { amount: "10", external_id: "read-1" });
      const res = await request(gateway.app).get(`/v1/sweeps/${sweep.id}`).set(partner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(sweep);
    });

    it.each(idsOfNothing)("answers %s with 404 not_found", async (_what, id) => {
      const res = await request(gateway.app).get(`/v1/sweeps/${id}`).set(partner.auth);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    });

    it("answers another partner's sweep with 404 and leaves it out of lists", async () => {
      const other = await createTestPartner(gateway.db);
      const wallet = await hotWalletIn(gateway, other, "active");
      const theirs = await create(other, { chain_id: SEPOLIA, hot_wallet: wallet.address, account: randomAddress(), token: "USDT" });
      expect((await request(gateway.app).get(`/v1/sweeps/${theirs.id}`).set(partner.auth)).status).toBe(404);
      expect(await readAllPages(list, { limit: 200 })).not.toContain(theirs.id);
      expect((await list({}, other)).body.items.map((s: Sweep) => s.id)).toEqual([theirs.id]);
    });
  });

  describe("GET /v1/sweeps", () => {
    it("lists newest first, 50 by default, with filters combined", async () => {
      const reader = await createTestPartner(gateway.db);
      const walletA = await hotWalletIn(gateway, reader, "active", SEPOLIA);
      const walletB = await hotWalletIn(gateway, reader, "active", BSC_TESTNET);
      const account = randomAddress();
      const made: Sweep[] = [];
      for (let i = 0; i < 55; i++) {
        const onA = i % 2 === 0;
        made.push(await create(reader, { chain_id: onA ? SEPOLIA : BSC_TESTNET, hot_wallet: onA ? walletA.address : walletB.address, account: i % 3 === 0 ? account : randomAddress(), token: "native" }));
      }
      await reader_swept(made[0]!.id);
      const newestFirst = made.map((s) => s.id).reverse();

      const first = await list({}, reader);
      expect(first.body.items.map((s: Sweep) => s.id)).toEqual(newestFirst.slice(0, 50));
      expect(first.body.next_cursor).toEqual(expect.any(String));

      const byChain = await list({ chain_id: BSC_TESTNET, limit: 200 }, reader);
      expect(byChain.body.items.map((s: Sweep) => s.id)).toEqual(made.filter((_, i) => i % 2 === 1).map((s) => s.id).reverse());
      expect(byChain.body.next_cursor).toBeNull();

      const combined = await list({ chain_id: SEPOLIA, account: account.toLowerCase(), hot_wallet: walletA.address.toLowerCase(), status: "queued" }, reader);
      expect(combined.body.items.map((s: Sweep) => s.id)).toEqual(made.filter((_, i) => i % 2 === 0 && i % 3 === 0 && i !== 0).map((s) => s.id).reverse());

      const swept = await list({ status: "swept" }, reader);
      expect(swept.body.items.map((s: Sweep) => s.id)).toEqual([made[0]!.id]);

      const byOtherWallet = await list({ hot_wallet: walletB.address, chain_id: SEPOLIA }, reader);
      expect(byOtherWallet.body).toEqual({ items: [], next_cursor: null });

      async function reader_swept(id: string) {
        await gateway.db.sweep.update({ where: { id }, data: { status: "swept" } });
      }
    });

    it("finds a sweep by its external_id, and the sweeps of a batch transaction by its hash in any case", async () => {
      const finder = await createTestPartner(gateway.db);
      const wallet = await hotWalletIn(gateway, finder, "active", SEPOLIA);
      const made = await Promise.all(
        ["order-1", "order-2", "order-3"].map((external_id) => create(finder, { external_id, chain_id: SEPOLIA, hot_wallet: wallet.address, account: randomAddress(), token: "native" })),
      );
      const hash = `0x${"ab".repeat(32)}`;
      await gateway.db.sweep.updateMany({ where: { id: { in: [made[0]!.id, made[2]!.id] } }, data: { txHash: hash } });
      expect((await list({ external_id: "order-2" }, finder)).body.items.map((s: Sweep) => s.id)).toEqual([made[1]!.id]);
      expect((await list({ tx_hash: hash.toUpperCase().replace("0X", "0x") }, finder)).body.items.map((s: Sweep) => s.id).sort()).toEqual([made[0]!.id, made[2]!.id].sort());
      expect((await list({ external_id: "order-2" })).body.items).toEqual([]);
      expectInvalidQuery(await list({ tx_hash: "0x12" }, finder), "tx_hash must be a 0x-transaction hash of 64 hex digits");
    });

    it("pages with limit and cursor: rows added between requests neither shift pages nor repeat", async () => {
      const pager = await createTestPartner(gateway.db);
      const wallet = await hotWalletIn(gateway, pager, "active");
      const add = () => create(pager, { chain_id: SEPOLIA, hot_wallet: wallet.address, account: randomAddress(), token: "USDT" });
      const before: string[] = [];
      for (let i = 0; i < 7; i++) before.push((await add()).id);

      const added: string[] = [];
      const seen = await readAllPages((query) => list(query, pager), { limit: 2 }, async () => added.push((await add()).id));

      expect(seen).toEqual([...before].reverse());
      expect(new Set(seen).size).toBe(seen.length);
      // The rows added meanwhile lead the next listing.
      const fresh = await list({ limit: added.length }, pager);
      expect(fresh.body.items.map((s: Sweep) => s.id)).toEqual([...added].reverse());
    });

    it("answers the last page with next_cursor null and an empty account with an empty page", async () => {
      const empty = await createTestPartner(gateway.db);
      expect((await list({}, empty)).body).toEqual({ items: [], next_cursor: null });
    });

    it.each<[string, ListQuery, RegExp]>([
      ...pagingRefusals,
      ["an unknown status", { status: "done" }, /^status /],
      ["a malformed account", { account: "0x1" }, /^account /],
      ["a malformed hot_wallet", { hot_wallet: "main" }, /^hot_wallet /],
      ["an unknown parameter", { sort: "asc" }, /^unknown query parameter sort$/],
    ])("refuses %s with 400 invalid_query naming the parameter", async (_what, query, message) => {
      expectInvalidQuery(await list(query), message);
    });

    it("refuses a repeated parameter with invalid_query", async () => {
      expectInvalidQuery(await request(gateway.app).get("/v1/sweeps?status=queued&status=swept").set(partner.auth), "status must be given once");
    });
  });
});
