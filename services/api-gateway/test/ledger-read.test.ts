import { randomUUID } from "node:crypto";
import { LedgerEntry, ledgerKinds } from "@sweep/api-contract";
import { toDecimal } from "@sweep/db";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { expectInvalidQuery } from "./reading";
import { BSC_TESTNET, SEPOLIA, createTestPartner, startTestGateway, type TestGateway } from "./support";

type Kind = (typeof ledgerKinds)[number];

describe("GET /v1/ledger", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
  });
  afterAll(() => gateway.close());

  const hash = () => `0x${randomUUID().replaceAll("-", "").padEnd(64, "0")}`;

  /** Books an entry as the ledger would, with the fields its kind has; returns its id. */
  async function book(who: TestPartner, kind: Kind, chainId = SEPOLIA, amount?: bigint): Promise<number> {
    const signed = amount ?? (kind === "topup" || kind === "fee_credit" ? 1_000n : -1_000n);
    const row = await gateway.db.ledgerEntry.create({
      data: {
        partnerId: who.partnerId,
        chainId,
        kind,
        amount: toDecimal(signed),
        txHash: ["gas", "fee", "withdrawal"].includes(kind) ? hash() : null,
        note: kind === "topup" ? "blocks 10-20" : kind === "fee_charge" || kind === "fee_credit" ? "agreement" : null,
        dedupeKey: `test:${randomUUID()}`,
      },
    });
    return Number(row.id);
  }
  const list = (query: Record<string, string | number>, who: TestPartner = partner) => request(gateway.app).get("/v1/ledger").query(query).set(who.auth);
  const ids = (res: { body: { items: LedgerEntry[] } }) => res.body.items.map((e) => e.id);

  it("answers each entry with every field, nullable ones as null, amounts signed to the wei", async () => {
    const who = await createTestPartner(gateway.db);
    const wallet = await gateway.db.hotWallet.create({ data: { partnerId: who.partnerId, chainId: BSC_TESTNET, address: `0x${"12".repeat(20)}`, delegate: `0x${"34".repeat(20)}` } });
    const sweep = await gateway.db.sweep.create({ data: { partnerId: who.partnerId, chainId: BSC_TESTNET, hotWalletId: wallet.id, account: `0x${"56".repeat(20)}`, token: "USDT" } });
    const txHash = hash();
    const big = (1n << 255n) + 7n;
    const fee = await gateway.db.ledgerEntry.create({
      data: { partnerId: who.partnerId, chainId: BSC_TESTNET, kind: "fee", amount: toDecimal(-big), txHash, sweepId: sweep.id, dedupeKey: `fee:${sweep.id}` },
    });
    const topup = await book(who, "topup", SEPOLIA, 5n);

    const res = await list({}, who);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { id: topup, chain_id: SEPOLIA, kind: "topup", amount: "5", tx_hash: null, sweep_id: null, note: "blocks 10-20", created_at: expect.any(String) },
        { id: Number(fee.id), chain_id: BSC_TESTNET, kind: "fee", amount: `-${big}`, tx_hash: txHash, sweep_id: sweep.id, note: null, created_at: fee.createdAt.toISOString() },
      ],
      next_cursor: null,
    });
    for (const item of res.body.items) expect(LedgerEntry.parse(item)).toEqual(item);
  });

  it("lists newest first, 50 by default, with chain_id and kind combined", async () => {
    const reader = await createTestPartner(gateway.db);
    const made: Array<{ id: number; kind: Kind; chainId: number }> = [];
    for (let i = 0; i < 56; i++) {
      const kind = ledgerKinds[i % ledgerKinds.length]!;
      const chainId = i % 4 < 2 ? SEPOLIA : BSC_TESTNET;
      made.push({ id: await book(reader, kind, chainId), kind, chainId });
    }
    const newestFirst = (pick: (e: (typeof made)[number]) => boolean) => made.filter(pick).map((e) => e.id).reverse();

    const first = await list({}, reader);
    expect(ids(first)).toEqual(newestFirst(() => true).slice(0, 50));
    expect(first.body.next_cursor).toEqual(expect.any(String));

    expect(ids(await list({ chain_id: BSC_TESTNET, limit: 200 }, reader))).toEqual(newestFirst((e) => e.chainId === BSC_TESTNET));
    for (const kind of ledgerKinds) {
      const res = await list({ kind, limit: 200 }, reader);
      expect([kind, ids(res)]).toEqual([kind, newestFirst((e) => e.kind === kind)]);
      expect(res.body.items.every((e: LedgerEntry) => e.kind === kind)).toBe(true);
    }
    expect(ids(await list({ kind: "withdrawal", chain_id: SEPOLIA }, reader))).toEqual(newestFirst((e) => e.kind === "withdrawal" && e.chainId === SEPOLIA));
    expect((await list({ kind: "topup", chain_id: SEPOLIA, limit: 1 }, await createTestPartner(gateway.db))).body).toEqual({ items: [], next_cursor: null });
  });

  it("pages with limit and cursor: entries booked between requests neither shift pages nor repeat", async () => {
    const pager = await createTestPartner(gateway.db);
    const before: number[] = [];
    for (let i = 0; i < 7; i++) before.push(await book(pager, i % 2 ? "gas" : "fee"));

    const added: number[] = [];
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(cursor ? { limit: 2, cursor } : { limit: 2 }, pager);
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res));
      cursor = res.body.next_cursor;
      added.push(await book(pager, "gas"));
    } while (cursor);

    expect(seen).toEqual([...before].reverse());
    expect(ids(await list({ limit: added.length }, pager))).toEqual([...added].reverse());
  });

  it("pages through a filtered list with the filters repeated", async () => {
    const pager = await createTestPartner(gateway.db);
    const fees: number[] = [];
    for (let i = 0; i < 5; i++) {
      fees.push(await book(pager, "fee", BSC_TESTNET));
      await book(pager, "gas", BSC_TESTNET);
    }
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const res = await list({ kind: "fee", chain_id: BSC_TESTNET, limit: 2, ...(cursor && { cursor }) }, pager);
      pages.push(ids(res));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(pages).toEqual([[fees[4], fees[3]], [fees[2], fees[1]], [fees[0]]]);
  });

  it("leaves other accounts' entries out", async () => {
    const [mine, theirs] = await Promise.all([createTestPartner(gateway.db), createTestPartner(gateway.db)]);
    const own = await book(mine, "gas");
    await book(theirs, "gas");
    expect(ids(await list({ limit: 200 }, mine))).toEqual([own]);
  });

  it.each<[string, Record<string, string | number>, RegExp]>([
    ["limit 0", { limit: 0 }, /^limit must be an integer from 1 to 200$/],
    ["limit 201", { limit: 201 }, /^limit /],
    ["a forged cursor", { cursor: "bm90LWEtY3Vyc29y" }, /^cursor is not a next_cursor of this list$/],
    ["a cursor of the sweeps list", { cursor: Buffer.from("s1.42").toString("base64url") }, /^cursor /],
    ["a cursor of the revocations list", { cursor: Buffer.from("r1.42").toString("base64url") }, /^cursor /],
    ["an unknown kind", { kind: "refund" }, /^kind must be one of gas, fee, fee_charge, fee_credit, withdrawal, topup$/],
    ["a kind in another case", { kind: "GAS" }, /^kind must be one of /],
    ["a chain outside the environment", { chain_id: 1 }, /^chain_id 1 is not a chain of this API/],
    ["a malformed chain_id", { chain_id: "97x" }, /^chain_id must be a chain id$/],
    ["a filter of another list", { status: "swept" }, /^unknown query parameter status$/],
  ])("refuses %s with 400 invalid_query naming the parameter", async (_what, query, message) => {
    expectInvalidQuery(await list(query), message);
  });

  it("refuses a repeated parameter with invalid_query", async () => {
    expectInvalidQuery(await request(gateway.app).get("/v1/ledger?kind=gas&kind=fee").set(partner.auth), "kind must be given once");
  });
});
