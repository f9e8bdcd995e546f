import type { BatchToSend } from "./batch-types";
import { batchPurposes, stagesOf } from "./batch-purposes";

const base = { id: "b", chainId: 97, partnerId: "p", gasWallet: { id: "g", address: "0xg", keyCustody: "sealed", encryptedKey: "", kekId: "k", keyLabel: null }, feesDue: 0n, inFlightCost: 0n };
const sweepItem = (sweepId: string, position: number) => ({ position, sweepId, withAuthorization: false, sweep: { account: "0xa", tokenAddress: null, amount: null, keepOneUnit: false, authorization: null } });
const revocationItem = (revocationId: string, position: number) => ({ position, revocationId, account: "0xa", authorization: null });

describe("what a batch's transaction carries, by purpose", () => {
  it.each<[string, BatchToSend, string[], object]>([
    ["a sweep batch", { ...base, purpose: "sweep", hotWalletId: "h", delegate: "0xd", items: [sweepItem("s1", 0), sweepItem("s2", 1)] }, [], { sweepIds: ["s1", "s2"] }],
    ["a sweep batch less the dropped", { ...base, purpose: "sweep", hotWalletId: "h", delegate: "0xd", items: [sweepItem("s1", 0), sweepItem("s2", 1), sweepItem("s3", 2)] }, ["s2"], { sweepIds: ["s1", "s3"] }],
    ["a revocation batch", { ...base, purpose: "revocation", hotWalletId: null, items: [revocationItem("r1", 0), revocationItem("r2", 1)] }, [], { revocationIds: ["r1", "r2"] }],
    ["a deployment", { ...base, purpose: "deploy_delegate", hotWalletId: "h", hotWallet: "0xh" }, [], { hotWalletId: "h" }],
    ["a withdrawal", { ...base, purpose: "withdrawal", hotWalletId: null, drainTo: null }, [], {}],
  ])("%s", (_what, batch, dropped, expected) => {
    expect(stagesOf(batch).carriedIds(batch, dropped)).toEqual(expected);
  });
});

describe("what a batch's transaction spends, by purpose", () => {
  const wallet = { ...base, feesDue: 400_000n, inFlightCost: 100_000n };
  it.each<[string, BatchToSend, { value: bigint | null; kept: bigint }, bigint?]>([
    ["a sweep sends nothing and keeps the fees due", { ...wallet, purpose: "sweep", hotWalletId: "h", delegate: "0xd", items: [] }, { value: 0n, kept: 400_000n }],
    ["a deployment likewise", { ...wallet, purpose: "deploy_delegate", hotWalletId: "h", hotWallet: "0xh" }, { value: 0n, kept: 400_000n }],
    ["a revocation likewise", { ...wallet, purpose: "revocation", hotWalletId: null, items: [] }, { value: 0n, kept: 400_000n }],
    ["a withdrawal sends the fees due less its gas, keeping none back", { ...wallet, purpose: "withdrawal", hotWalletId: null, drainTo: null }, { value: 400_000n - 21_000n * 5n, kept: 0n }],
    ["a drain sends the rest of the balance, keeping the fees due", { ...wallet, purpose: "withdrawal", hotWalletId: null, drainTo: "0xn" }, { value: 10_000_000n - 400_000n - 100_000n - 25_000n * 5n, kept: 400_000n }],
    ["on an OP-stack chain a withdrawal leaves its L1 data fee reserve out too", { ...wallet, purpose: "withdrawal", hotWalletId: null, drainTo: null }, { value: 400_000n - 21_000n * 5n - 7_000n, kept: 0n }, 7_000n],
    ["and a drain", { ...wallet, purpose: "withdrawal", hotWalletId: null, drainTo: "0xn" }, { value: 10_000_000n - 400_000n - 100_000n - 25_000n * 5n - 7_000n, kept: 400_000n }, 7_000n],
    ["a sweep's reserve is kept from its balance check, not its value", { ...wallet, purpose: "sweep", hotWalletId: "h", delegate: "0xd", items: [] }, { value: 0n, kept: 400_000n }, 7_000n],
  ])("%s", (_what, batch, expected, l1Reserve = 0n) => {
    expect(stagesOf(batch).spending(batch, 10_000_000n, batch.purpose === "withdrawal" && batch.drainTo !== null ? 25_000n : 21_000n, 5n, l1Reserve)).toEqual(expected);
  });

  it("never loads a gap filler as an open batch", async () => {
    await expect(batchPurposes.gap_fill.load({} as never, {} as never)).resolves.toEqual({ skip: "gap_fill batches are not sent by this version" });
  });
});

describe("how each purpose is seen through once mined", () => {
  it.each([
    ["sweep", false],
    ["revocation", false],
    ["deploy_delegate", false],
    ["withdrawal", false],
    ["gap_fill", true],
  ] as const)("a %s batch is a gap filler: %s (never failed to anyone, never replaced)", (purpose, gapFill) => {
    expect(batchPurposes[purpose].gapFill).toBe(gapFill);
  });

  it.each(["sweep", "deploy_delegate", "withdrawal", "gap_fill"] as const)("a %s batch reads nothing from the chain before it is settled", async (purpose) => {
    const batch = { id: "b", purpose, hotWalletId: null, partnerId: "p", delegate: null };
    await expect(batchPurposes[purpose].chainOutcomes({} as never, {} as never, batch, {} as never)).resolves.toEqual([]);
  });
});
