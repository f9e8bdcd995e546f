import { Transaction, Wallet } from "ethers";
import { drainEntries, withdrawalEntry } from "./withdrawal-entry";

const key = new Wallet(`0x${"42".repeat(32)}`);
const treasury = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const sign = (value: bigint, to: string | null = treasury) =>
  key.signTransaction({ type: 2, chainId: 97, nonce: 3, to, value, data: "0x", gasLimit: 21_000, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n });
const receiptOf = (rawTx: string, gasUsed = 21_000n, effectiveGasPrice = 1n, l1Fee = 0n) => ({ hash: Transaction.from(rawTx).hash!, succeeded: true, gasUsed, effectiveGasPrice, l1Fee, minimumL1Fee: 0n });

describe("withdrawal entry", () => {
  it.each([
    ["value and gas together", 10n ** 16n, 21_000n, 1_500_000_000n, -(10n ** 16n + 21_000n * 1_500_000_000n)],
    ["a value of 1 wei", 1n, 21_000n, 1n, -21_001n],
    ["value, gas and an OP-stack chain's L1 data fee", 10n ** 16n, 21_000n, 3n, -(10n ** 16n + 63_000n + 811_641_400_000n), 811_641_400_000n],
  ])("books %s as one negative amount, keyed and noted by the transaction", async (_name, value, gasUsed, effectiveGasPrice, amount, l1Fee = 0n) => {
    const rawTx = await sign(value);
    const receipt = receiptOf(rawTx, gasUsed, effectiveGasPrice, l1Fee);
    expect(withdrawalEntry({ partnerId: "p", chainId: 97, rawTx, receipt })).toEqual({
      partnerId: "p",
      chainId: 97,
      kind: "withdrawal",
      amount,
      txHash: receipt.hash,
      note: `to ${treasury}`,
      dedupeKey: `withdrawal:${receipt.hash}`,
    });
  });

  it("refuses a stored transaction that is not the mined one", async () => {
    const rawTx = await sign(5n);
    expect(() => withdrawalEntry({ partnerId: "p", chainId: 97, rawTx, receipt: { ...receiptOf(rawTx), hash: `0x${"00".repeat(32)}` } })).toThrow(/hashes to/);
  });

  it("refuses a stored transaction without a recipient", async () => {
    const rawTx = await sign(5n, null);
    expect(() => withdrawalEntry({ partnerId: "p", chainId: 97, rawTx, receipt: receiptOf(rawTx) })).toThrow(/no recipient/);
  });
});

describe("drain entries", () => {
  const newGasWallet = "0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec";

  it("books the drain's gas and, as a negative topup naming the recipient, the value it sent", async () => {
    const rawTx = await sign(10n ** 17n, newGasWallet);
    const receipt = receiptOf(rawTx, 21_000n, 3n);
    const scope = { partnerId: "p", chainId: 97, txHash: receipt.hash };
    expect(drainEntries({ partnerId: "p", chainId: 97, rawTx, receipt }, newGasWallet.toLowerCase())).toEqual([
      { ...scope, kind: "gas", amount: -63_000n, note: null, dedupeKey: `gas:${receipt.hash}` },
      { ...scope, kind: "topup", amount: -(10n ** 17n), note: `drained to ${newGasWallet}`, dedupeKey: `drain:${receipt.hash}` },
    ]);
  });

  it("books an L1 data fee with the drain's gas", async () => {
    const rawTx = await sign(10n ** 17n, newGasWallet);
    const [gas] = drainEntries({ partnerId: "p", chainId: 10, rawTx, receipt: receiptOf(rawTx, 21_000n, 3n, 5n) }, newGasWallet);
    expect(gas!.amount).toBe(-63_005n);
  });

  it("refuses a transaction that went elsewhere than the batch's drain address", async () => {
    const rawTx = await sign(5n, treasury);
    expect(() => drainEntries({ partnerId: "p", chainId: 97, rawTx, receipt: receiptOf(rawTx) }, newGasWallet)).toThrow(/not 0x1CBd/);
  });
});
