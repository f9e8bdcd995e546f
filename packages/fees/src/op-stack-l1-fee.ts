/**
 * The L1 data fee an OP-stack chain charges a transaction beyond its L2 gas, as the Fjord upgrade
 * defines it (op-geth's rollup_cost.go, op-revm's l1block.rs, the GasPriceOracle's getL1FeeFjord):
 * the signed transaction's bytes, FastLZ-compressed, estimated as a size in L1 bytes and priced at
 * the L1 base fee and blob base fee that the L1Block predeploy holds for the block.
 */

/** The L1Block predeploy's fee values (Ecotone layout: base fee, blob base fee, and their scalars). */
export interface L1BlockFees {
  l1BaseFee: bigint;
  blobBaseFee: bigint;
  baseFeeScalar: bigint;
  blobBaseFeeScalar: bigint;
}

/** The L1Block predeploy: its fee values live in its storage (`l1BlockSlots`). */
export const L1_BLOCK_ADDRESS = "0x4200000000000000000000000000000000000015";

/** Where L1Block keeps its fee values: slot 1 the L1 base fee, slot 3 the two scalars packed, slot 7 the blob base fee. */
export const L1_BLOCK_SLOTS = { l1BaseFee: 1n, scalars: 3n, blobBaseFee: 7n } as const;

/** Slot 3 packs baseFeeScalar (uint32) at bit 96 and blobBaseFeeScalar (uint32) at bit 64. */
export function unpackScalars(slot3: bigint): Pick<L1BlockFees, "baseFeeScalar" | "blobBaseFeeScalar"> {
  const uint32 = (1n << 32n) - 1n;
  return { baseFeeScalar: (slot3 >> 96n) & uint32, blobBaseFeeScalar: (slot3 >> 64n) & uint32 };
}

/** The inverse of unpackScalars, for a test node's L1Block (the other bits of slot 3 left zero). */
export function packScalars(fees: Pick<L1BlockFees, "baseFeeScalar" | "blobBaseFeeScalar">): bigint {
  return (fees.baseFeeScalar << 96n) | (fees.blobBaseFeeScalar << 64n);
}

/** Fjord's linear regression from a FastLZ size to L1 bytes, scaled by 1e6, and its floor of 100 bytes. */
const FJORD_INTERCEPT = -42_585_600n;
const FJORD_FASTLZ_COEF = 836_500n;
const FJORD_MIN_TX_SIZE_SCALED = 100n * 1_000_000n;
/** 16 gas per byte of calldata on L1, and the 1e6 of the scalars times the 1e6 of the size. */
const L1_BYTE_GAS = 16n;
const FJORD_DIVISOR = 1_000_000_000_000n;

/** The L1 data fee of a signed transaction (its type byte and RLP, as broadcast), in wei. */
export function fjordL1Fee(signedTx: Uint8Array, fees: L1BlockFees): bigint {
  return l1FeeOfCompressedSize(BigInt(fastLzCompressedLength(signedTx)), fees);
}

/** The L1 data fee of a transaction whose FastLZ size is `fastLzSize` bytes. */
export function l1FeeOfCompressedSize(fastLzSize: bigint, fees: L1BlockFees): bigint {
  const regressed = FJORD_INTERCEPT + FJORD_FASTLZ_COEF * fastLzSize;
  const estimatedSize = regressed > FJORD_MIN_TX_SIZE_SCALED ? regressed : FJORD_MIN_TX_SIZE_SCALED;
  const feeScaled = fees.baseFeeScalar * L1_BYTE_GAS * fees.l1BaseFee + fees.blobBaseFeeScalar * fees.blobBaseFee;
  return (estimatedSize * feeScaled) / FJORD_DIVISOR;
}

/** What a signature adds to the unsigned RLP at most: y parity, r and s with their RLP prefixes, and a longer list header. */
const SIGNATURE_BYTES = 70;

/**
 * What the balance check keeps for a transaction's L1 data fee before it is signed: its unsigned
 * size plus a signature, counted as if FastLZ could not compress a byte (literals cost a byte more per
 * 32), at twice the L1Block's current prices (they follow L1's base fee, which can rise an eighth a
 * block, and several L1 blocks can pass before ours is mined). Never less than the fee charged.
 */
export function l1FeeReserve(unsignedTxSize: number, fees: L1BlockFees): bigint {
  const size = unsignedTxSize + SIGNATURE_BYTES;
  return 2n * l1FeeOfCompressedSize(BigInt(size + Math.ceil(size / 32)), fees);
}

const HASH_ENTRIES = 8192;
const MAX_DISTANCE = 8192;

/**
 * The length FastLZ (level 1) compresses `input` to, without building the output: the count that
 * Solady's LibZip.flzCompress, op-geth's FlzCompressLen and op-revm agree on, and the chain charges by.
 */
export function fastLzCompressedLength(input: Uint8Array): number {
  const triple = (at: number) => input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16);
  // Bits 19 to 31 of sequence × 2654435769: the low 32 bits of the product decide them.
  const hashOf = (sequence: number) => (Math.imul(sequence, 2654435769) >>> 19) & (HASH_ENTRIES - 1);
  const table = new Uint32Array(HASH_ENTRIES);
  const remember = (at: number) => {
    table[hashOf(triple(at))] = at;
    return at + 1;
  };
  // A run of literals costs one byte per 32 bytes besides the bytes themselves; a match two or three.
  const literals = (count: number, size: number) => size + 33 * Math.floor(count / 32) + (count % 32 !== 0 ? (count % 32) + 1 : 0);
  const match = (length: number, size: number) => {
    const l = length - 1;
    return size + 3 * Math.floor(l / 262) + (l % 262 >= 6 ? 3 : 2);
  };
  const limit = input.length < 13 ? 0 : input.length - 13;
  let at = 2;
  let anchor = 0;
  let size = 0;
  while (at < limit) {
    let reference = 0;
    for (;;) {
      const sequence = triple(at);
      const slot = hashOf(sequence);
      reference = table[slot]!;
      table[slot] = at;
      const distance = at - reference;
      if (at >= limit) break;
      at += 1;
      if (distance < MAX_DISTANCE && sequence === triple(reference)) break;
    }
    if (at >= limit) break;
    at -= 1;
    if (at > anchor) size = literals(at - anchor, size);
    // The match's length: the bytes compared up to the limit's end, counted whole even past the first difference (as the reference does).
    const end = limit + 9 - (at + 3);
    let length = 0;
    let compared = end;
    while (length < compared) {
      if (input[reference + 3 + length] !== input[at + 3 + length]) compared = 0;
      length += 1;
    }
    size = match(length, size);
    at = remember(at + length);
    at = remember(at);
    anchor = at;
  }
  return literals(input.length - anchor, size);
}
