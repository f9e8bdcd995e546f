import { newTransactionVerdict } from "./new-transaction-hold";

const gwei = 1_000_000_000n;
const ceiling = { maxFeePerGas: 10n * gwei, maxPriorityFeePerGas: 2n * gwei };

describe("a new transaction at the fee market the sender read", () => {
  it.each([
    ["calm: the ceiling pays the base fee and the whole tip ceiling", "sweep", { baseFee: 1n * gwei, tip: 1n * gwei }, "send"],
    ["the base fee and the suggested tip exactly at the ceiling", "sweep", { baseFee: 9n * gwei, tip: 1n * gwei }, "send"],
    ["a tip the tip ceiling caps still fits", "revocation", { baseFee: 8n * gwei, tip: 5n * gwei }, "send"],
    ["the suggested tip no longer fits under the ceiling: sweeps go back", "sweep", { baseFee: 9n * gwei, tip: 1n * gwei + 1n }, "return_to_queue"],
    ["a spike over the ceiling: sweeps go back", "sweep", { baseFee: 50n * gwei, tip: 1n * gwei }, "return_to_queue"],
    ["a spike over the ceiling: revocations go back", "revocation", { baseFee: 50n * gwei, tip: 0n }, "return_to_queue"],
    ["a spike over the ceiling: a deployment waits open", "deploy_delegate", { baseFee: 50n * gwei, tip: 1n * gwei }, "wait_open"],
    ["a spike over the ceiling: a withdrawal or drain waits open", "withdrawal", { baseFee: 10n * gwei + 1n, tip: 0n }, "wait_open"],
    ["a withdrawal in a calm market goes", "withdrawal", { baseFee: 1n * gwei, tip: 1n * gwei }, "send"],
  ] as const)("%s", (_what, purpose, market, verdict) => {
    expect(newTransactionVerdict(purpose, ceiling, market)).toBe(verdict);
  });
});
