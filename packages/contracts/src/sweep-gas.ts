/**
 * Gas SweepDelegate wants left before each item (its private ITEM_GAS_NEEDED: the item's 300,000,
 * the 1/64 a call keeps back, and 10,000 for the account access and the event), or the batch
 * reverts with BatchGasTooLow. A transaction's gas limit keeps this much above what its items use.
 */
export const ITEM_GAS_NEEDED = 300_000n + 300_000n / 63n + 10_000n;
