import { Transaction, Wallet } from "ethers";
import { withdrawalEntry } from "./withdrawal-entry";

const key = new Wallet(`0x${"42".repeat(32)}`);
const treasury = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const sign = (value: bigint, to: string | null = treasury) =>
  key.signTransaction({ type: 2, chainId: 97, nonce: 3, to, value, data: "0x", gasLimit: 21_000, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n });
const receiptOf = (rawTx: string, gasUsed = 21_000n, effectiveGasPrice = 1n) => ({ hash: Transaction.from(rawTx).hash!, succeeded: true, gasUsed, effectiveGasPrice });

describe("withdrawal entry", () => {
  it.each([
    ["value and gas together", 10n ** 16n, 21_000n, 1_500_000_000n, -(10n ** 16n + 21_000n * 1_500_000_000n)],
    ["a value of 1 wei", 1n, 21_000n, 1n, -21_001n],
  ])("books %s as one negative amount, keyed and noted by the transaction", async (_name, value, gasUsed, effectiveGasPrice, amount) => {
    const rawTx = await sign(value);
    const receipt = receiptOf(rawTx, gasUsed, effectiveGasPrice);
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
