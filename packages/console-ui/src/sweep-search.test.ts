import { sweepSearch, type SweepSearch } from "./sweep-search";

describe("sweepSearch", () => {
  it.each<[string, string, SweepSearch]>([
    ["a sweep id, in any case (or an external_id shaped as one)", " 0B0F6A0E-9D43-4A53-9D0A-0F3D3CF5C2A1 ", { open: "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1", orExternalId: "0B0F6A0E-9D43-4A53-9D0A-0F3D3CF5C2A1" }],
    ["a deposit address", "0x8617E340B3D01FA5F11F306F4090FD50E238070D", { filter: "account", value: "0x8617E340B3D01FA5F11F306F4090FD50E238070D" }],
    ["a transaction hash", `0x${"ab".repeat(32)}`, { filter: "tx_hash", value: `0x${"ab".repeat(32)}` }],
    ["an external_id", "order-1234", { filter: "external_id", value: "order-1234" }],
    ["a policy's external_id", `deposit:97:0x${"cd".repeat(32)}:-1`, { filter: "external_id", value: `deposit:97:0x${"cd".repeat(32)}:-1` }],
    ["0x with too few digits: an external_id", "0x12", { filter: "external_id", value: "0x12" }],
    ["nothing", "   ", null],
  ])("%s", (_, typed, expected) => {
    expect(sweepSearch(typed)).toEqual(expected);
  });
});
