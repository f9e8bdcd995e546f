import { Wallet } from "ethers";
import type { SweepBatchToSend } from "../batch-types";
import { capAfterRefusal, fitCap } from "./split-sending";

const gwei = 1_000_000_000n;
const wallet = new Wallet("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const signed = (gasLimit: bigint, maxFeePerGas: bigint) =>
  wallet.signTransaction({ type: 2, chainId: 97, nonce: 0, to: wallet.address, value: 0n, gasLimit, maxFeePerGas, maxPriorityFeePerGas: 1n });

describe("the cap after the node refused for its own", () => {
  const coin = 10n ** 18n;
  it.each([
    ["the node names its cap (the least that prints so)", coin, 1_000_000n, 10, "tx fee (1.23 ether) exceeds the configured cap (1.00 ether)", 995_000_000_000_000_000n],
    ["a configured cap below the node's stays", coin / 2n, 1_000_000n, 10, "tx fee (1.23 ether) exceeds the configured cap (1.00 ether)", coin / 2n],
    // 400,000 overhead + 10 × 60,000: half the items cost 700,000 gas at 10 gwei.
    ["a small cap prints 0.00: what half the items would cost", coin, 1_000_000n, 10, "tx fee (0.01 ether) exceeds the configured cap (0.00 ether)", 700_000n * 10n * gwei],
    ["Besu's words name no cap", coin, 1_000_000n, 3, "Transaction fee cap exceeded", (400_000n + 200_000n) * 10n * gwei],
  ])("%s", async (_what, configured, gasLimit, items, message, expected) => {
    expect(capAfterRefusal(configured, { rawTx: await signed(gasLimit, 10n * gwei), items, overheadGas: 400_000n }, message)).toBe(expected);
  });
});

describe("fitting a batch under the cap", () => {
  const item = (i: number, account: string, withAuthorization: boolean) => ({
    position: i,
    sweepId: `s${i}`,
    withAuthorization,
    sweep: { account, tokenAddress: null, amount: null, keepOneUnit: false, authorization: null },
  });
  // s0 carries A's authorization and s1 rides on it; s2 and s3 are repeats of B and C.
  const batch = { purpose: "sweep", items: [item(0, "0xa", true), item(1, "0xa", false), item(2, "0xb", false), item(3, "0xc", false)] } as unknown as SweepBatchToSend;
  const sending = (cap: bigint) => ({ gasLimit: 1_000_000n, maxFeePerGas: 1_000n, cap, marginBps: 0, blockGasLimit: 30_000_000n });
  const ids = (fit: ReturnType<typeof fitCap>) => (typeof fit === "string" ? fit : [...fit].sort());

  it.each([
    ["within the cap", new Set<string>(), 1_000_000_000n, "fits"],
    // The overhead is 26,250 + the ~315,000 the delegate reserves; about 165,000 an item: 3 fit in 840,000.
    ["over: the last item leaves", new Set<string>(), 840_000_000n, ["s3"]],
    ["over by more: the carrier stays, its rider and the rest leave", new Set<string>(), 520_000_000n, ["s1", "s2", "s3"]],
    ["items excluded already are not counted", new Set(["s3"]), 840_000_000n, ["s2"]],
    ["one item left and still over", new Set(["s1", "s2", "s3"]), 500_000_000n, "too_big"],
  ])("%s", (_what, excluded, cap, expected) => {
    expect(ids(fitCap(batch, excluded, sending(cap)))).toEqual(expected);
  });
});
