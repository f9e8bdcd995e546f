import { bumpFees, highestFees, initialFees } from "./fees";

const gwei = 1_000_000_000n;
/** Out of reach in the cases that are not about the ceiling. */
const open = { maxFeePerGas: 10n ** 30n, maxPriorityFeePerGas: 10n ** 30n };

describe("fees", () => {
  it.each([
    // market (base fee, tip), ceiling, expected fees
    ["the tip and room for the base fee to double", { baseFee: 10n * gwei, tip: 2n * gwei }, open, { maxFeePerGas: 22n * gwei, maxPriorityFeePerGas: 2n * gwei }],
    ["nothing asked, nothing offered", { baseFee: 0n, tip: 0n }, open, { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }],
    ["the max fee stops at its ceiling", { baseFee: 10n * gwei, tip: 2n * gwei }, { maxFeePerGas: 15n * gwei, maxPriorityFeePerGas: 5n * gwei }, { maxFeePerGas: 15n * gwei, maxPriorityFeePerGas: 2n * gwei }],
    ["the tip stops at its ceiling", { baseFee: 10n * gwei, tip: 8n * gwei }, { maxFeePerGas: 100n * gwei, maxPriorityFeePerGas: 3n * gwei }, { maxFeePerGas: 23n * gwei, maxPriorityFeePerGas: 3n * gwei }],
    ["the tip never above the max fee", { baseFee: 0n, tip: 8n }, { maxFeePerGas: 5n, maxPriorityFeePerGas: 10n }, { maxFeePerGas: 5n, maxPriorityFeePerGas: 5n }],
  ])("a new transaction: %s", (_name, market, ceiling, expected) => {
    expect(initialFees(market, ceiling)).toEqual(expected);
  });

  it.each([
    // previous fees, market (base fee, tip), expected replacement fees
    ["a calm market: 12.5% up on both", { maxFeePerGas: 80n, maxPriorityFeePerGas: 8n }, { baseFee: 10n, tip: 1n }, { maxFeePerGas: 90n, maxPriorityFeePerGas: 9n }],
    ["rounds the raise up", { maxFeePerGas: 81n, maxPriorityFeePerGas: 9n }, { baseFee: 1n, tip: 1n }, { maxFeePerGas: 92n, maxPriorityFeePerGas: 11n }],
    ["zero fees still rise by a wei", { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, { baseFee: 0n, tip: 0n }, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }],
    ["a higher tip on offer now wins", { maxFeePerGas: 100n, maxPriorityFeePerGas: 2n }, { baseFee: 10n, tip: 20n }, { maxFeePerGas: 113n, maxPriorityFeePerGas: 20n }],
    ["a climbing base fee lifts the fee cap to base × 2 + tip", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, { baseFee: 500n, tip: 1n }, { maxFeePerGas: 1_012n, maxPriorityFeePerGas: 12n }],
  ])("a replacement below the ceiling: %s", (_name, previous, market, expected) => {
    const bumped = bumpFees(previous, market, open)!;
    expect(bumped).toEqual(expected);
    expect(bumped.maxFeePerGas * 8n).toBeGreaterThanOrEqual(previous.maxFeePerGas * 9n);
    expect(bumped.maxPriorityFeePerGas * 8n).toBeGreaterThanOrEqual(previous.maxPriorityFeePerGas * 9n);
    expect(bumped.maxFeePerGas).toBeGreaterThanOrEqual(bumped.maxPriorityFeePerGas);
  });

  it.each([
    // previous fees, market, ceiling, expected: the replacement's fees, or null (kept as it is)
    ["a climbing base fee is followed only up to the ceiling", { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, { baseFee: 500n, tip: 1n }, { maxFeePerGas: 300n, maxPriorityFeePerGas: 50n }, { maxFeePerGas: 300n, maxPriorityFeePerGas: 12n }],
    ["a raise that lands on the ceiling exactly", { maxFeePerGas: 80n, maxPriorityFeePerGas: 8n }, { baseFee: 10n, tip: 1n }, { maxFeePerGas: 90n, maxPriorityFeePerGas: 9n }, { maxFeePerGas: 90n, maxPriorityFeePerGas: 9n }],
    ["a max fee raise over the ceiling is refused", { maxFeePerGas: 80n, maxPriorityFeePerGas: 8n }, { baseFee: 10n, tip: 1n }, { maxFeePerGas: 89n, maxPriorityFeePerGas: 50n }, null],
    ["a tip raise over its ceiling is refused", { maxFeePerGas: 80n, maxPriorityFeePerGas: 8n }, { baseFee: 10n, tip: 1n }, { maxFeePerGas: 500n, maxPriorityFeePerGas: 8n }, null],
    ["a transaction already at the ceiling is kept", { maxFeePerGas: 90n, maxPriorityFeePerGas: 9n }, { baseFee: 10n, tip: 1n }, { maxFeePerGas: 90n, maxPriorityFeePerGas: 9n }, null],
  ])("a replacement at the ceiling: %s", (_name, previous, market, ceiling, expected) => {
    expect(bumpFees(previous, market, ceiling)).toEqual(expected);
  });

  it("stops rising at the ceiling however long a transaction is stuck", () => {
    const ceiling = { maxFeePerGas: 30n * gwei, maxPriorityFeePerGas: 3n * gwei };
    let fees = initialFees({ baseFee: gwei, tip: gwei }, ceiling);
    let replacements = 0;
    for (let bumped = bumpFees(fees, { baseFee: gwei, tip: gwei }, ceiling); bumped; bumped = bumpFees(fees, { baseFee: gwei, tip: gwei }, ceiling)) {
      fees = bumped;
      replacements++;
    }
    expect(replacements).toBe(9);
    expect(fees.maxFeePerGas).toBeLessThanOrEqual(ceiling.maxFeePerGas);
    expect(fees.maxPriorityFeePerGas).toBeLessThanOrEqual(ceiling.maxPriorityFeePerGas);
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
