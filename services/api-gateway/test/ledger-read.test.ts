import { randomUUID } from "node:crypto";
import { LedgerEntry, LedgerSummary, ledgerKinds } from "@sweep/api-contract";
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
        { id: topup, chain_id: SEPOLIA, kind: "topup", amount: "5", tx_hash: null, sweep_id: null, note: "blocks 10-20", created_at: expect.any(String), balance_after: "5", paid_for: null },
        { id: Number(fee.id), chain_id: BSC_TESTNET, kind: "fee", amount: `-${big}`, tx_hash: txHash, sweep_id: sweep.id, note: null, created_at: fee.createdAt.toISOString(), balance_after: "0", paid_for: null },
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

  it("gives each entry the gas wallet's balance after it, per chain, on every page and under any filter", async () => {
    const reader = await createTestPartner(gateway.db);
    const booked: Array<[Kind, number, bigint]> = [
      ["topup", SEPOLIA, 1_000n],
      ["gas", SEPOLIA, -100n],
      ["fee", SEPOLIA, -40n],
      ["topup", BSC_TESTNET, 500n],
      ["gas", SEPOLIA, -60n],
      ["withdrawal", SEPOLIA, -40n],
      ["gas", BSC_TESTNET, -5n],
    ];
    const made: number[] = [];
    for (const [kind, chainId, amount] of booked) made.push(await book(reader, kind, chainId, amount));
    const balances = (res: { body: { items: LedgerEntry[] } }) => res.body.items.map((e) => [e.id, e.balance_after]);
    const expected = [
      [made[6], "495"],
      [made[5], "800"],
      [made[4], "840"],
      [made[3], "500"],
      [made[2], "900"],
      [made[1], "900"],
      [made[0], "1000"],
    ];
    expect(balances(await list({}, reader))).toEqual(expected);
    // Two entries a page: each page starts from what came before it.
    const second = await list({ limit: 2, cursor: (await list({ limit: 2 }, reader)).body.next_cursor }, reader);
    expect(balances(second)).toEqual(expected.slice(2, 4));
    // Only the fee listed: the gas and withdrawal left out still counted around it.
    expect(balances(await list({ kind: "fee" }, reader))).toEqual([[made[2], "900"]]);
    expect(balances(await list({ chain_id: BSC_TESTNET }, reader))).toEqual([expected[0], expected[3]]);
  });

  it("filters by a time range, created_after included and created_before left out, and sums a period per chain", async () => {
    const reader = await createTestPartner(gateway.db);
    const at = (day: number) => new Date(Date.UTC(2026, 9, day, 12));
    const dated = async (kind: Kind, day: number, amount: bigint) => {
      const id = await book(reader, kind, SEPOLIA, amount);
      await gateway.db.ledgerEntry.update({ where: { id: BigInt(id) }, data: { createdAt: at(day) } });
      return id;
    };
    await dated("topup", 1, 1_000n);
    const inside = [await dated("gas", 5, -100n), await dated("fee", 6, -30n), await dated("fee_credit", 7, 10n), await dated("withdrawal", 8, -20n)];
    await dated("gas", 20, -1n);
    const range = { created_after: "2026-10-05T00:00:00Z", created_before: "2026-10-09T00:00:00.000Z" };

    expect(ids(await list(range, reader))).toEqual([...inside].reverse());
    expect(ids(await list({ created_after: at(6).toISOString() }, reader))).toEqual(expect.arrayContaining([inside[1], inside[2], inside[3]]));
    expect(ids(await list({ created_after: at(6).toISOString() }, reader))).not.toContain(inside[0]);

    const summary = await request(gateway.app).get("/v1/ledger/summary").query({ ...range, chain_id: SEPOLIA }).set(reader.auth);
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      chains: [{ chain_id: SEPOLIA, opening_balance: "1000", closing_balance: "880", totals: { gas: "-100", fee: "-30", fee_charge: "0", fee_credit: "10", withdrawal: "-20", topup: "0" }, entries: 4 }],
    });
    expect(LedgerSummary.parse(summary.body)).toEqual(summary.body);
    // Without a range: every chain of the environment, from nothing to now.
    const all = await request(gateway.app).get("/v1/ledger/summary").set(reader.auth);
    expect(all.body.chains.find((c: { chain_id: number }) => c.chain_id === SEPOLIA)).toMatchObject({ opening_balance: "0", closing_balance: "879", entries: 6 });
    expect(all.body.chains.find((c: { chain_id: number }) => c.chain_id === BSC_TESTNET)).toMatchObject({ opening_balance: "0", closing_balance: "0", entries: 0 });
    expectInvalidQuery(await request(gateway.app).get("/v1/ledger/summary").query({ created_after: "last month" }).set(reader.auth), /^created_after must be an ISO 8601 date-time$/);
  });

  it("names what each gas entry paid for: the batch of sweeps, a deployment, a withdrawal or a drain", async () => {
    const who = await createTestPartner(gateway.db);
    const gasWallet = await gateway.db.gasWallet.findUniqueOrThrow({ where: { partnerId: who.partnerId } });
    const hot = await gateway.db.hotWallet.create({ data: { partnerId: who.partnerId, chainId: SEPOLIA, address: `0x${"ab".repeat(20)}`, delegate: `0x${"cd".repeat(20)}` } });
    let nonce = 0n;
    const gasOf = async (purpose: "sweep" | "deploy_delegate" | "withdrawal", sweeps = 0, drainTo: string | null = null) => {
      const batch = await gateway.db.batch.create({ data: { chainId: SEPOLIA, gasWalletId: gasWallet.id, hotWalletId: purpose === "withdrawal" ? null : hot.id, purpose, drainTo } });
      for (let i = 0; i < sweeps; i++) await gateway.db.sweep.create({ data: { partnerId: who.partnerId, chainId: SEPOLIA, hotWalletId: hot.id, account: `0x${randomUUID().replaceAll("-", "").slice(0, 40).padEnd(40, "0")}`, token: "USDT", batchId: batch.id } });
      const txHash = hash();
      await gateway.db.chainTransaction.create({ data: { chainId: SEPOLIA, gasWalletId: gasWallet.id, batchId: batch.id, nonce: nonce++, hash: txHash, rawTx: "0x", gasLimit: 100_000n, maxFeePerGas: toDecimal(1n), maxPriorityFeePerGas: toDecimal(1n) } });
      await gateway.db.ledgerEntry.create({ data: { partnerId: who.partnerId, chainId: SEPOLIA, kind: "gas", amount: toDecimal(-1n), txHash, dedupeKey: `gas:${txHash}` } });
      return batch.id;
    };
    const batches = [await gasOf("deploy_delegate"), await gasOf("sweep", 2), await gasOf("withdrawal"), await gasOf("withdrawal", 0, `0x${"ee".repeat(20)}`)];
    const topup = await book(who, "topup", SEPOLIA, 10n);

    const res = await list({}, who);
    expect(res.body.items.map((e: LedgerEntry) => [e.kind, e.paid_for])).toEqual([
      ["topup", null],
      ["gas", { kind: "drain", batch_id: batches[3], items: 0, hot_wallet: null }],
      ["gas", { kind: "withdrawal", batch_id: batches[2], items: 0, hot_wallet: null }],
      ["gas", { kind: "sweep_batch", batch_id: batches[1], items: 2, hot_wallet: hot.address }],
      ["gas", { kind: "delegate_deployment", batch_id: batches[0], items: 0, hot_wallet: hot.address }],
    ]);
    expect(res.body.items[0].id).toBe(topup);
    for (const item of res.body.items) expect(LedgerEntry.parse(item)).toEqual(item);
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
