import { EIP7702_EXTRA_GAS } from "@sweep/fees";
import type { SweepKind } from "@sweep/db";

/** One item of a transaction as the gas split sees it. */
export interface GasSplitItem {
  /** the item's own gas, from the delegate's event */
  gasUsed: bigint;
  kind: SweepKind;
  /** whether the transaction carried the item's authorization */
  withAuthorization: boolean;
}

/**
 * What an authorization costs its item: 25,000 charged, of which 12,500 come back when the account
 * already existed (the protocol's figures; the refund lands in the receipt, not in the item's event).
 */
export function authorizationGas(kind: SweepKind, withAuthorization: boolean): bigint {
  if (!withAuthorization) return 0n;
  return kind === "first_new" ? EIP7702_EXTRA_GAS.delegation + EIP7702_EXTRA_GAS.account : EIP7702_EXTRA_GAS.delegation;
}

/** Gas attributable to one item alone: its call plus its authorization. */
export function directGas(item: GasSplitItem): bigint {
  if (item.gasUsed < 0n) throw new RangeError(`an item's gas cannot be negative, got ${item.gasUsed}`);
  return item.gasUsed + authorizationGas(item.kind, item.withAuthorization);
}

/**
 * Splits `total` over `weights` in proportion (all weights 0: evenly), so that the shares add up
 * exactly to `total` and none is negative: each gets the floor of its exact share, and the units
 * left over go one each to the largest remainders, ties to the earlier item.
 */
export function apportion(total: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) throw new RangeError("nothing to split over");
  if (total < 0n) throw new RangeError(`cannot split a negative total, got ${total}`);
  if (weights.some((w) => w < 0n)) throw new RangeError("weights cannot be negative");
  const effective = weights.some((w) => w > 0n) ? weights : weights.map(() => 1n);
  const sum = effective.reduce((a, b) => a + b, 0n);
  const shares = effective.map((w) => (total * w) / sum);
  const remainders = effective.map((w, index) => ({ index, remainder: (total * w) % sum }));
  let left = total - shares.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index]! += 1n;
    left -= 1n;
  }
  return shares;
}

/**
 * Each item's share of the receipt's gasUsed, in item order. The gas no single item caused (the
 * 21,000 base, calldata, the batch loop, and refunds, which can make it negative) is borne in
 * proportion to direct gas: the split is gasUsed apportioned by direct gas, exact to the unit.
 */
export function splitGas(gasUsed: bigint, items: readonly GasSplitItem[]): bigint[] {
  return apportion(gasUsed, items.map(directGas));
}

/**
 * `total` split evenly over `count` items, in item order: each gets the floor of an equal share and
 * the units left over go one each to the first items, so the shares add up exactly to `total`.
 * Revocations share their transaction this way: each carries the same authorization and no call.
 */
export function splitEvenly(total: bigint, count: number): bigint[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`cannot split over ${count} items`);
  if (total < 0n) throw new RangeError(`cannot split a negative total, got ${total}`);
  const share = total / BigInt(count);
  const left = total % BigInt(count);
  return Array.from({ length: count }, (_, i) => (BigInt(i) < left ? share + 1n : share));
}
