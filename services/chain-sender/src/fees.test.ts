import { bumpFees, highestFees, initialFees } from "./fees";

const gwei = 1_000_000_000n;

describe("fees", () => {
  it("offers the tip and room for the base fee to double", () => {
    expect(initialFees({ baseFee: 10n * gwei, tip: 2n * gwei })).toEqual({ maxFeePerGas: 22n * gwei, maxPriorityFeePerGas: 2n * gwei });
    expect(initialFees({ baseFee: 0n, tip: 0n })).toEqual({ maxFeePerGas: 0n, maxPriorityFeePerGas: 0n });
  });

  it.each([
    // previous fees, market (base fee, tip), expected replacement fees
    ["a calm market: 12.5% up on both", { maxFeePerGas: 80n, maxPriorityFeePerGas: 8n }, { baseFee: 10n, tip: 1n }, { maxFeePerGas: 90n, maxPriorityFeePerGas: 9n }],
    ["rounds the raise up", { maxFeePerGas: 81n, maxPriorityFeePerGas: 9n }, { baseFee: 1n, tip: 1n }, { maxFeePerGas: 92n, maxPriorityFeePerGas: 11n }],
    ["zero fees still rise by a wei", { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, { baseFee: 0n, tip: 0n }, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }],
    ["a higher tip on offer now wins", { maxFeePerGas: 100n, maxPriorityFeePerGas: 2n }, { baseFee: 10n, tip: 20n }, { maxFeePerGas: 113n, maxPriorityFeePerGas: 20n }],
    ["a climbing base fee lifts the fee cap to base × 2 + tip", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, { baseFee: 500n, tip: 1n }, { maxFeePerGas: 1_012n, maxPriorityFeePerGas: 12n }],
  ])("%s", (_name, previous, market, expected) => {
    const bumped = bumpFees(previous, market);
    expect(bumped).toEqual(expected);
    expect(bumped.maxFeePerGas * 8n).toBeGreaterThanOrEqual(previous.maxFeePerGas * 9n);
    expect(bumped.maxPriorityFeePerGas * 8n).toBeGreaterThanOrEqual(previous.maxPriorityFeePerGas * 9n);
    expect(bumped.maxFeePerGas).toBeGreaterThanOrEqual(bumped.maxPriorityFeePerGas);
  });

  it("keeps rising with every replacement: no cap", () => {
    let fees = initialFees({ baseFee: gwei, tip: gwei });
    for (let i = 0; i < 50; i++) fees = bumpFees(fees, { baseFee: gwei, tip: gwei });
    expect(fees.maxFeePerGas).toBeGreaterThan(300n * gwei);
  });

  it("outbids the highest fees of a nonce, each fee on its own", () => {
    expect(highestFees([])).toBeNull();
    expect(
      highestFees([
        { maxFeePerGas: 10n, maxPriorityFeePerGas: 5n },
        { maxFeePerGas: 12n, maxPriorityFeePerGas: 1n },
      ]),
    ).toEqual({ maxFeePerGas: 12n, maxPriorityFeePerGas: 5n });
  });
});
