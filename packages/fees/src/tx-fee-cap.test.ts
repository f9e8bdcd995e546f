import { capInRefusal, configuredTxFeeCap, DEFAULT_TX_FEE_CAP, withinTxFeeCap } from "./tx-fee-cap";

describe("TX_FEE_CAP_<chain_id>", () => {
  const read = (env: Record<string, string>) => {
    const problems: string[] = [];
    const cap = configuredTxFeeCap(97, env, (f) => {
      try {
        return f();
      } catch (err) {
        problems.push((err as Error).message);
        return undefined;
      }
    });
    return { cap, problems };
  };

  it.each([
    ["unset: one coin, the nodes' default", {}, DEFAULT_TX_FEE_CAP, []],
    ["wei in decimal digits", { TX_FEE_CAP_97: "250000000000000000" }, 250_000_000_000_000_000n, []],
    ["another chain's variable is not this one's", { TX_FEE_CAP_56: "5" }, DEFAULT_TX_FEE_CAP, []],
    ["zero", { TX_FEE_CAP_97: "0" }, DEFAULT_TX_FEE_CAP, ["TX_FEE_CAP_97 must be a whole number of wei above zero, in decimal digits"]],
    ["ether, not wei", { TX_FEE_CAP_97: "1 ether" }, DEFAULT_TX_FEE_CAP, ["TX_FEE_CAP_97 must be a whole number of wei above zero, in decimal digits"]],
    ["a fraction", { TX_FEE_CAP_97: "1.5" }, DEFAULT_TX_FEE_CAP, ["TX_FEE_CAP_97 must be a whole number of wei above zero, in decimal digits"]],
  ])("%s", (_what, env, cap, problems) => {
    expect(read(env)).toEqual({ cap, problems });
  });
});

describe("the cap a node's refusal names", () => {
  it.each([
    ["geth's default", "tx fee (1.23 ether) exceeds the configured cap (1.00 ether)", 995_000_000_000_000_000n],
    ["a lower cap", "tx fee (0.31 ether) exceeds the configured cap (0.25 ether)", 245_000_000_000_000_000n],
    ["no decimals", "tx fee (3 ether) exceeds the configured cap (2 ether)", 1_500_000_000_000_000_000n],
    ["a cap that rounds to zero", "tx fee (0.01 ether) exceeds the configured cap (0.00 ether)", null],
    ["other words", "transaction fee cap exceeded", null],
  ])("%s", (_what, message, cap) => {
    expect(capInRefusal(message)).toBe(cap);
  });
});

describe("within the cap", () => {
  it.each([
    ["16.7M gas at 29 gwei fits 1 ETH", 16_777_216n, 29_000_000_000n, DEFAULT_TX_FEE_CAP, true],
    ["16.7M gas at 60 gwei does not", 16_777_216n, 60_000_000_000n, DEFAULT_TX_FEE_CAP, false],
    ["exactly the cap", 1_000_000n, 1_000n, 1_000_000_000n, true],
    ["one wei over", 1_000_001n, 1_000n, 1_000_000_000n, false],
  ])("%s", (_what, gasLimit, maxFee, cap, fits) => {
    expect(withinTxFeeCap(gasLimit, maxFee, cap)).toBe(fits);
  });
});
