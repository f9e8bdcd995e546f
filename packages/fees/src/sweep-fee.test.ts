import type { ChainTariff } from "./tariff";
import { nativeSweepFee, sweepFee, tokenSweepFee } from "./sweep-fee";

const GWEI = 1_000_000_000n;
const MAX = (1n << 256n) - 1n;

describe("token sweep fee", () => {
  it.each([
    // 0.7 × 50,547 = 35,382.9 gas of the classic way, 20,000 used: 15,382.9 gas saved
    ["70% of a benchmark above the sweep's gas", 7000, 50_547n, 20_000n, GWEI, 15_382_900_000_000n],
    ["rounds down once, at the end (15,382.9 wei)", 7000, 50_547n, 20_000n, 1n, 15_382n],
    ["a fraction of a wei is no fee", 1, 1n, 0n, 1n, 0n],
    ["rate 0 means no fee", 0, 50_547n, 0n, GWEI, 0n],
    ["exactly the benchmark share: nothing", 5000, 10_000n, 5_000n, GWEI, 0n],
    ["a sweep dearer than the benchmark share: never below zero", 7000, 50_547n, 40_000n, GWEI, 0n],
    ["a gas price of 10,000 × 2^200", 7000, 50_547n, 20_000n, 10_000n << 200n, 153_829_000n << 200n],
  ])("%s", (_what, rateBps, classicGas, sweepGas, gasPrice, fee) => {
    expect(tokenSweepFee({ rateBps, classicGas, sweepGas, gasPrice, l1Fee: 0n, minimumL1Fee: 0n })).toBe(fee);
  });

  it.each([
    // 35,382.9 gwei of the classic way against 20,000 gwei of L2 gas and 5,000 gwei of L1 data: 10,382.9 gwei saved
    ["an L1 data fee is a cost of the sweep", 7000, 50_547n, 20_000n, GWEI, 5_000n * GWEI, 10_382_900_000_000n],
    ["rounds down once, at the end, with it (10,382.9 wei)", 7000, 50_547n, 20_000n, 1n, 5_000n, 10_382n],
    ["an L1 fee that eats the saving: nothing", 7000, 50_547n, 20_000n, GWEI, 15_383n * GWEI, 0n],
  ])("%s", (_what, rateBps, classicGas, sweepGas, gasPrice, l1Fee, fee) => {
    expect(tokenSweepFee({ rateBps, classicGas, sweepGas, gasPrice, l1Fee, minimumL1Fee: 0n })).toBe(fee);
  });

  it.each([
    // 0.7 × (50,547 gwei + 2 × 2,000 gwei of L1 data the classic way) − (20,000 + 5,000) gwei
    ["the classic way's two transactions each pay the block's least L1 fee", 7000, 50_547n, 20_000n, GWEI, 5_000n * GWEI, 2_000n * GWEI, 13_182_900_000_000n],
    ["and show a saving the L2 gas alone hardly shows", 7000, 30_000n, 20_000n, GWEI, 0n, 2_000n * GWEI, 3_800n * GWEI],
  ])("%s", (_what, rateBps, classicGas, sweepGas, gasPrice, l1Fee, minimumL1Fee, fee) => {
    expect(tokenSweepFee({ rateBps, classicGas, sweepGas, gasPrice, l1Fee, minimumL1Fee })).toBe(fee);
  });

  it("keeps every wei at a gas price near 2^256", () => {
    const fee = tokenSweepFee({ rateBps: 7000, classicGas: 50_547n, sweepGas: 20_000n, gasPrice: MAX, l1Fee: 0n, minimumL1Fee: 0n });
    const exact = 153_829_000n * MAX; // in basis points
    expect(fee * 10_000n <= exact && exact - fee * 10_000n < 10_000n).toBe(true);
  });

  it.each([
    ["rate", { rateBps: -1, classicGas: 1n, sweepGas: 0n, gasPrice: 1n, l1Fee: 0n, minimumL1Fee: 0n }],
    ["benchmark", { rateBps: 1, classicGas: -1n, sweepGas: 0n, gasPrice: 1n, l1Fee: 0n, minimumL1Fee: 0n }],
    ["gas", { rateBps: 1, classicGas: 1n, sweepGas: -1n, gasPrice: 1n, l1Fee: 0n, minimumL1Fee: 0n }],
    ["gas price", { rateBps: 1, classicGas: 1n, sweepGas: 0n, gasPrice: -1n, l1Fee: 0n, minimumL1Fee: 0n }],
    ["L1 fee", { rateBps: 1, classicGas: 1n, sweepGas: 0n, gasPrice: 1n, l1Fee: -1n, minimumL1Fee: 0n }],
    ["least L1 fee", { rateBps: 1, classicGas: 1n, sweepGas: 0n, gasPrice: 1n, l1Fee: 0n, minimumL1Fee: -1n }],
  ])("refuses a negative %s", (_what, input) => {
    expect(() => tokenSweepFee(input)).toThrow(RangeError);
  });
});

describe("native sweep fee", () => {
  it.each([
    ["10% markup on 15,000 gas", 1000, 15_000n, GWEI, 1_500n * GWEI],
    ["capped by what it saves against 21,000", 10_000, 15_000n, GWEI, 6_000n * GWEI],
    ["the cap is exact at the boundary", 4_000, 15_000n, GWEI, 6_000n * GWEI],
    ["rounds down (10,663.611 wei)", 1234, 12_345n, 7n, 10_663n],
    ["a fraction of a wei is no fee", 1, 9_999n, 1n, 0n],
    ["markup 0 means no fee", 0, 15_000n, GWEI, 0n],
    ["a sweep costing a plain transfer saves nothing", 1000, 21_000n, GWEI, 0n],
    ["a sweep dearer than a plain transfer: never below zero", 1000, 25_000n, GWEI, 0n],
    ["a gas price of 10,000 × 2^200", 1000, 15_000n, 10_000n << 200n, 15_000_000n << 200n],
  ])("%s", (_what, markupBps, sweepGas, gasPrice, fee) => {
    expect(nativeSweepFee({ markupBps, sweepGas, gasPrice, l1Fee: 0n, minimumL1Fee: 0n })).toBe(fee);
  });

  it.each([
    // 10% of 15,000 gwei of L2 gas and 1,000 gwei of L1 data
    ["the markup covers the L1 data fee too", 1000, 15_000n, GWEI, 1_000n * GWEI, 1_600n * GWEI],
    // it saves 6,000 gwei of L2 gas, less 4,500 gwei of L1 data
    ["the cap is what it saves, less the L1 data fee", 10_000, 15_000n, GWEI, 4_500n * GWEI, 1_500n * GWEI],
    ["an L1 fee above the gas it saves: nothing", 1000, 15_000n, GWEI, 6_001n * GWEI, 0n],
  ])("%s", (_what, markupBps, sweepGas, gasPrice, l1Fee, fee) => {
    expect(nativeSweepFee({ markupBps, sweepGas, gasPrice, l1Fee, minimumL1Fee: 0n })).toBe(fee);
  });

  it("counts the plain transfer's own L1 fee, the block's least, in what a native sweep saves", () => {
    // saves 6,000 gwei of L2 gas and the transfer's 1,000 gwei of L1 data, less its own 4,500 gwei
    expect(nativeSweepFee({ markupBps: 10_000, sweepGas: 15_000n, gasPrice: GWEI, l1Fee: 4_500n * GWEI, minimumL1Fee: 1_000n * GWEI })).toBe(2_500n * GWEI);
  });

  it("marks up and caps exactly at a gas price near 2^256", () => {
    expect(nativeSweepFee({ markupBps: 10_000, sweepGas: 20_000n, gasPrice: MAX, l1Fee: 0n, minimumL1Fee: 0n })).toBe(1_000n * MAX);
    expect(nativeSweepFee({ markupBps: 1, sweepGas: 20_000n, gasPrice: MAX, l1Fee: 0n, minimumL1Fee: 0n })).toBe(2n * MAX);
  });
});

describe("fee of a swept item under a tariff", () => {
  const tariff: Pick<ChainTariff, "rateBps" | "nativeMarkupBps" | "classicGas"> = {
    rateBps: 7000,
    nativeMarkupBps: 1000,
    classicGas: { USDT: { new: 60_000n, existing: 50_000n }, ETH: { new: 21_000n, existing: 21_000n } },
  };

  it.each([
    ["a repeat token sweep against the existing benchmark", { token: "USDT", native: false, kind: "repeat" }, 20_000n, { fee: 15_000n, classicGas: 50_000n, rateBps: 7000 }],
    ["a first token sweep against the existing benchmark", { token: "USDT", native: false, kind: "first" }, 30_000n, { fee: 5_000n, classicGas: 50_000n, rateBps: 7000 }],
    ["a first_new token sweep against the new benchmark", { token: "USDT", native: false, kind: "first_new" }, 30_000n, { fee: 12_000n, classicGas: 60_000n, rateBps: 7000 }],
    ["a token without a benchmark carries no fee", { token: "DAI", native: false, kind: "repeat" }, 20_000n, { fee: 0n, classicGas: null, rateBps: 7000 }],
    ["a native sweep: markup, against a plain transfer", { token: "ETH", native: true, kind: "first" }, 15_000n, { fee: 1_500n, classicGas: 21_000n, rateBps: 1000 }],
  ] as const)("%s", (_what, sweep, gas, expected) => {
    expect(sweepFee(tariff, { ...sweep, gas, gasPrice: 1n, l1Fee: 0n, minimumL1Fee: 0n })).toEqual(expected);
  });
});
