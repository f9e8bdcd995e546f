import { paidFor, type PaidBatch } from "./paid-for";

const batch = (purpose: PaidBatch["purpose"], extra: Partial<PaidBatch> = {}): PaidBatch => ({ id: "b", purpose, drainTo: null, hotWallet: null, sweeps: 0, revocations: 0, ...extra });

describe("paidFor", () => {
  it.each<[PaidBatch, string, number]>([
    [batch("sweep", { sweeps: 3, hotWallet: "0xH" }), "sweep_batch", 3],
    [batch("revocation", { revocations: 2 }), "revocation_batch", 2],
    [batch("deploy_delegate", { hotWallet: "0xH" }), "delegate_deployment", 0],
    [batch("gap_fill"), "nonce_fill", 0],
    [batch("withdrawal"), "withdrawal", 0],
    [batch("withdrawal", { drainTo: "0xD" }), "drain", 0],
  ])("a %j batch's gas paid for a %s of %i items", (paid, kind, items) => {
    expect(paidFor(paid)).toEqual({ kind, batch_id: "b", items, hot_wallet: paid.hotWallet });
  });
});
