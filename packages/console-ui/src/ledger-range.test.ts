import { ledgerRange } from "./ledger-range";

describe("ledgerRange", () => {
  it.each<[string, string, ReturnType<typeof ledgerRange>]>([
    ["", "", {}],
    ["2026-10-01", "2026-10-31", { created_after: "2026-10-01T00:00:00.000Z", created_before: "2026-11-01T00:00:00.000Z" }],
    ["2026-02-01", "2026-02-28", { created_after: "2026-02-01T00:00:00.000Z", created_before: "2026-03-01T00:00:00.000Z" }],
    ["", "2026-12-31", { created_before: "2027-01-01T00:00:00.000Z" }],
    ["2026-11-28", "", { created_after: "2026-11-28T00:00:00.000Z" }],
    ["28/11/2026", "yesterday", {}],
  ])("from %j to %j", (from, to, range) => {
    expect(ledgerRange(from, to)).toEqual(range);
  });
});
