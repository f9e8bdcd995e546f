import { ZeroAddress, concat, getAddress, toBeArray } from "ethers";
import { sweepDelegateInterface } from "./sweep-delegate-abi";

/** The token address of the native coin in a sweep item. */
export const NATIVE_TOKEN = ZeroAddress;

export interface SweepItem {
  /** deposit address */
  account: string;
  /** ERC-20 contract, or NATIVE_TOKEN */
  token: string;
  /** smallest units; 0n moves the whole balance */
  amount: bigint;
  /** leave 1 smallest unit of the token; the delegate ignores it for the native coin */
  keepOneUnit: boolean;
  /**
   * the token may keep part of a transfer: the delegate reports what the hot wallet received (two
   * more balance reads); absent means false; ignored for the native coin
   */
  feeOnTransfer?: boolean;
}

// Flags byte of an item and options byte of its token; the layout is documented in SweepDelegate.sol.
const KEEP_ONE_UNIT = 0x80;
const SAME_TOKEN = 0x40;
const FEE_ON_TRANSFER = 0x01;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * Packs items into the `items` argument of SweepDelegate.sweepBatch: per item a flags byte, the
 * account, the token's options byte and the token unless both repeat the previous item's, and the
 * amount in as few bytes as it needs (none for the whole balance).
 */
export function encodeSweepItems(items: readonly SweepItem[]): string {
  let previousToken = NATIVE_TOKEN;
  let previousOptions = 0;
  const parts: Uint8Array[] = [];
  for (const item of items) {
    if (item.amount < 0n || item.amount > MAX_UINT256) throw new RangeError(`sweep amount out of range: ${item.amount}`);
    // Items of one token follow each other: its checksum (a keccak) is taken once per run.
    const token = item.token === previousToken ? previousToken : getAddress(item.token);
    const options = item.feeOnTransfer && token !== NATIVE_TOKEN ? FEE_ON_TRANSFER : 0;
    const amount = item.amount === 0n ? new Uint8Array() : toBeArray(item.amount);
    const sameToken = token === previousToken && options === previousOptions;
    const flags = (item.keepOneUnit ? KEEP_ONE_UNIT : 0) | (sameToken ? SAME_TOKEN : 0) | amount.length;
    parts.push(Uint8Array.of(flags), toBytes(getAddress(item.account)));
    if (!sameToken) parts.push(Uint8Array.of(options), toBytes(token));
    parts.push(amount);
    previousToken = token;
    previousOptions = options;
  }
  return concat(parts);
}

/** Calldata of SweepDelegate.sweepBatch for the items. */
export function encodeSweepBatch(items: readonly SweepItem[]): string {
  return sweepDelegateInterface.encodeFunctionData("sweepBatch", [encodeSweepItems(items)]);
}

function toBytes(address: string): Uint8Array {
  return Uint8Array.from(Buffer.from(address.slice(2), "hex"));
}
