import type { BatchToSend } from "./batch-store";
import { carriedIds } from "./carried-ids";

const base = { id: "b", chainId: 97, partnerId: "p", gasWallet: { id: "g", address: "0xg", keyCustody: "sealed", encryptedKey: "", kekId: "k", keyLabel: null }, feesDue: 0n, inFlightCost: 0n };
const sweepItem = (sweepId: string, position: number) => ({ position, sweepId, withAuthorization: false, sweep: { account: "0xa", tokenAddress: null, amount: null, keepOneUnit: false, authorization: null } });
const revocationItem = (revocationId: string, position: number) => ({ position, revocationId, account: "0xa", authorization: null });

describe("carriedIds", () => {
  it.each<[string, BatchToSend, string[], object]>([
    ["a sweep batch", { ...base, purpose: "sweep", hotWalletId: "h", delegate: "0xd", items: [sweepItem("s1", 0), sweepItem("s2", 1)] }, [], { sweepIds: ["s1", "s2"] }],
    ["a sweep batch less the dropped", { ...base, purpose: "sweep", hotWalletId: "h", delegate: "0xd", items: [sweepItem("s1", 0), sweepItem("s2", 1), sweepItem("s3", 2)] }, ["s2"], { sweepIds: ["s1", "s3"] }],
    ["a revocation batch", { ...base, purpose: "revocation", hotWalletId: null, items: [revocationItem("r1", 0), revocationItem("r2", 1)] }, [], { revocationIds: ["r1", "r2"] }],
    ["a deployment", { ...base, purpose: "deploy_delegate", hotWalletId: "h", hotWallet: "0xh" }, [], { hotWalletId: "h" }],
    ["a withdrawal", { ...base, purpose: "withdrawal", hotWalletId: null, drainTo: null }, [], {}],
  ])("%s", (_what, batch, dropped, expected) => {
    expect(carriedIds(batch, dropped)).toEqual(expected);
  });
});
