import { lowBalanceChange, type LowBalanceAlertState } from "./low-balance";

describe("low balance alert", () => {
  const alert = (threshold: bigint, low: boolean): LowBalanceAlertState => ({ threshold, low });
  const MAX_UINT256 = (1n << 256n) - 1n;

  it.each<[string, bigint, LowBalanceAlertState | null, ReturnType<typeof lowBalanceChange>]>([
    ["no alert on the chain", 0n, null, null],
    ["armed, falls below", 99n, alert(100n, false), "fire"],
    ["armed, at the threshold", 100n, alert(100n, false), null],
    ["armed, above", 101n, alert(100n, false), null],
    ["fired, still below", 5n, alert(100n, true), null],
    ["fired, back at the threshold", 100n, alert(100n, true), "rearm"],
    ["fired, above", 1_000n, alert(100n, true), "rearm"],
    ["armed, empty gas wallet", 0n, alert(1n, false), "fire"],
    ["amounts near 2^256", MAX_UINT256 - 1n, alert(MAX_UINT256, false), "fire"],
  ])("%s", (_name, balance, state, expected) => {
    expect(lowBalanceChange(balance, state)).toBe(expected);
  });
});
