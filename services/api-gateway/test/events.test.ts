import { Event as EventSchema, EventList } from "@sweep/api-contract";
import { recordEvents } from "@sweep/lifecycle";
import type { TestPartner } from "@sweep/testkit";
import request from "supertest";
import { BSC_TESTNET, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

// A partner that had no webhook set finds every event of the last 30 days by GET /v1/events, newest
// first, each as a delivery would carry it now; fetching sends nothing.

describe("GET /v1/events", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let hotWalletId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
    hotWalletId = (await hotWalletIn(gateway, partner, "active", BSC_TESTNET)).id;
    // As the services record them, one statement each, oldest first; the partner has no webhook.
    const drafts = [
      { partnerId: partner.partnerId, type: "webhook.test" as const, payload: { message: "one" }, dedupeKey: null },
      { partnerId: partner.partnerId, type: "hot_wallet.active" as const, subjectId: hotWalletId },
      { partnerId: partner.partnerId, type: "deposit_address.activity" as const, payload: { chain_id: BSC_TESTNET, address: randomAddress(), tx_hash: `0x${"ab".repeat(32)}`, block_number: 7 } },
      { partnerId: partner.partnerId, type: "webhook.test" as const, payload: { message: "two" }, dedupeKey: null },
    ];
    for (const draft of drafts) ids.push(...((await gateway.db.$transaction((tx) => recordEvents(tx, gateway.names, [draft]))) as string[]));
    // A second apart, so the time filters have clear edges.
    const start = Date.now() - 60_000;
    for (const [i, id] of ids.entries()) await gateway.db.event.update({ where: { id }, data: { createdAt: new Date(start + i * 1_000) } });
  });
  afterAll(() => gateway.close());

  const list = (query = "", who: TestPartner = partner) => request(gateway.app).get(`/v1/events${query}`).set(who.auth);

  it("lists every event newest first, each in the webhook's Event shape with its data as it is now, none of them delivered for it", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(EventList.parse(res.body)).toEqual(res.body);
    expect(res.body.items.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    const [two, activity, active] = res.body.items;
    expect(two).toEqual({ id: ids[3], type: "webhook.test", created_at: expect.any(String), data: { message: "two" } });
    expect(activity.data).toMatchObject({ chain_id: BSC_TESTNET, block_number: 7 });
    expect(active).toMatchObject({ type: "hot_wallet.active", data: { chain_id: BSC_TESTNET, status: "active" } });
    for (const event of res.body.items) expect(() => EventSchema.parse(event)).not.toThrow();
    expect(await gateway.db.webhookDelivery.count({ where: { partnerId: partner.partnerId } })).toBe(0);
  });

  it("pages through them, and filters by type and time", async () => {
    const first = await list("?limit=3");
    const second = await list(`?limit=3&cursor=${first.body.next_cursor}`);
    expect([...first.body.items, ...second.body.items].map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    expect(second.body.next_cursor).toBeNull();

    expect((await list("?type=webhook.test")).body.items.map((e: { id: string }) => e.id)).toEqual([ids[3], ids[0]]);
    const times = await gateway.db.event.findMany({ where: { id: { in: ids } }, orderBy: { seq: "asc" }, select: { createdAt: true } });
    const at = (i: number) => encodeURIComponent(times[i]!.createdAt.toISOString());
    expect((await list(`?created_after=${at(1)}&created_before=${at(3)}`)).body.items.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
  });

  it("reaches back 30 days, and shows no other account's", async () => {
    const old = ids[0]!;
    await gateway.db.event.update({ where: { id: old }, data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    expect((await list()).body.items.map((e: { id: string }) => e.id)).not.toContain(old);
    expect((await list(`?created_after=${encodeURIComponent(new Date(Date.now() - 40 * 86_400_000).toISOString())}`)).body.items.map((e: { id: string }) => e.id)).not.toContain(old);
    expect((await list("", await createTestPartner(gateway.db))).body).toEqual({ items: [], next_cursor: null });
  });

  it.each([
    ["?type=swept", "type"],
    ["?created_after=yesterday", "created_after"],
    ["?cursor=s1", "cursor"],
    ["?limit=0", "limit"],
    ["?chain=97", "chain"],
  ])("refuses %s naming the parameter", async (query, parameter) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_query");
    expect(res.body.error.message).toContain(parameter);
  });
});
