import { ledgerCursors, revocationCursors, sweepCursors, webhookDeliveryCursors } from "./cursor";

const base64url = (text: string) => Buffer.from(text).toString("base64url");

describe.each([
  ["sweeps", sweepCursors, "s1"],
  ["revocations", revocationCursors, "r1"],
  ["ledger", ledgerCursors, "l1"],
  ["webhook deliveries", webhookDeliveryCursors, "w1"],
])("page cursors of %s", (_list, cursors, tag) => {
  it.each([1n, 42n, 9223372036854775807n])("carry seq %s there and back, opaque and URL-safe", (seq) => {
    const cursor = cursors.encode(seq);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(seq.toString());
    expect(cursors.decode(cursor)).toBe(seq);
  });

  it.each([
    ["empty", ""],
    ["not base64url", "abc+/="],
    ["a bare number", "42"],
    ["another prefix", base64url(`${tag}x.42`)],
    ["seq 0", base64url(`${tag}.0`)],
    ["a leading zero", base64url(`${tag}.042`)],
    ["past a Postgres bigint", base64url(`${tag}.9223372036854775808`)],
    ["too long", "A".repeat(65)],
  ])("refuse %s", (_what, cursor) => {
    expect(cursors.decode(cursor)).toBeNull();
  });
});

describe("cursors of different lists", () => {
  it.each([
    ["sweeps", "revocations", sweepCursors, revocationCursors],
    ["revocations", "sweeps", revocationCursors, sweepCursors],
    ["ledger", "sweeps", ledgerCursors, sweepCursors],
    ["sweeps", "ledger", sweepCursors, ledgerCursors],
    ["ledger", "revocations", ledgerCursors, revocationCursors],
    ["revocations", "ledger", revocationCursors, ledgerCursors],
    ["webhook deliveries", "sweeps", webhookDeliveryCursors, sweepCursors],
    ["sweeps", "webhook deliveries", sweepCursors, webhookDeliveryCursors],
  ])("are refused by each other's list: %s cursors by the %s list", (_from, _to, from, to) => {
    expect(to.decode(from.encode(42n))).toBeNull();
  });

  it("keep the sweeps' cursors handed out before the lists shared this module", () => {
    expect(sweepCursors.decode(base64url("s1.42"))).toBe(42n);
    expect(sweepCursors.decode(base64url("s2.42"))).toBeNull();
  });
});
