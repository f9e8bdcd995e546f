import { beyondPrefix, itemsWithinCap, reservedItems, withTheirAccounts, type SplitItem } from "./batch-split";

const gwei = 1_000_000_000n;
const coin = 10n ** 18n;

describe("items within the fee cap", () => {
  it.each([
    ["fits: every item stays", { items: 10, gasLimit: 1_000_000n, maxFeePerGas: 10n * gwei, cap: coin, overheadGas: 400_000n }, 10],
    ["exactly at the cap", { items: 10, gasLimit: 1_000_000n, maxFeePerGas: 1_000n, cap: 1_000_000_000n, overheadGas: 400_000n }, 10],
    // 60,000 gas an item above a 400,000 overhead; the cap allows 700,000 gas: 5 items.
    ["over: the items the cap's gas holds past the overhead", { items: 10, gasLimit: 1_000_000n, maxFeePerGas: 1_000n, cap: 700_000_000n, overheadGas: 400_000n }, 5],
    ["the issue's 16.7M-gas batch at 60 gwei (1.007 ETH) under 1 ETH", { items: 430, gasLimit: 16_777_216n, maxFeePerGas: 60n * gwei, cap: coin, overheadGas: 400_000n }, 427],
    ["less than the overhead: one item is still tried", { items: 10, gasLimit: 1_000_000n, maxFeePerGas: 1_000n, cap: 300_000_000n, overheadGas: 400_000n }, 1],
    ["never as many as before", { items: 2, gasLimit: 1_000_000n, maxFeePerGas: 1_000n, cap: 999_999_999n, overheadGas: 0n }, 1],
    ["one item over the cap: nothing to send", { items: 1, gasLimit: 500_000n, maxFeePerGas: 1_000n, cap: 1_000n, overheadGas: 400_000n }, 0],
  ])("%s", (_what, input, kept) => {
    expect(itemsWithinCap(input)).toBe(kept);
  });
});

// A first-time sweep of A with a repeat of A riding on it, a first-time sweep of B, a repeat of C delegated before.
const items: SplitItem[] = [
  { id: "a1", account: "0xAaaa", withAuthorization: true },
  { id: "a2", account: "0xaaaa", withAuthorization: false },
  { id: "b1", account: "0xbbbb", withAuthorization: true },
  { id: "c1", account: "0xcccc", withAuthorization: false },
];
const sorted = (ids: Set<string>) => [...ids].sort();

describe("what leaves with an item", () => {
  it.each([
    ["a carrier takes its rider", ["a1"], ["a1", "a2"]],
    ["a rider leaves alone", ["a2"], ["a2"]],
    ["a repeat of an account delegated before leaves alone", ["c1"], ["c1"]],
    ["nothing", [], []],
  ])("%s", (_what, leaving, expected) => {
    expect(sorted(withTheirAccounts(items, new Set(leaving)))).toEqual(expected);
  });

  it.each([
    ["keeping 3", 3, ["c1"]],
    ["keeping 1 (the carrier keeps its rider out)", 1, ["a2", "b1", "c1"]],
    ["keeping all", 4, []],
  ])("beyond a prefix: %s", (_what, keep, expected) => {
    expect(sorted(beyondPrefix(items, keep))).toEqual(expected);
  });
});

describe("items out for a reserved authority", () => {
  it.each([
    ["the account found pending, with its rider", ["0xAAAA"], ["a1", "a2"]],
    ["another found pending", ["0xbbbb"], ["b1"]],
    ["a pending account without an authorization in the batch: every authorization's items", ["0xcccc"], ["a1", "a2", "b1"]],
    ["none found: every authorization's items", [], ["a1", "a2", "b1"]],
  ])("%s", (_what, reserved, expected) => {
    expect(sorted(reservedItems(items, new Set(reserved)))).toEqual(expected);
  });
});
