import { fastLzCompressedLength, fjordL1Fee, l1FeeOfCompressedSize, l1FeeReserve, packScalars, unpackScalars, type L1BlockFees } from "./op-stack-l1-fee";

const hex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

// The lengths op-geth, op-revm and Solady's LibZip agree on (their shared test vectors).
const SAMPLE_CALL =
  "02f901550a758302df1483be21b88304743f94f80e51afb613d764fa61751affd3313c190a86bb870151bd62fd12adb8e41ef24f3f000000000000000000000000000000000000000000000000000000000000006e000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e5831000000000000000000000000000000000000000000000000000000000003c1e5000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000a000000000000000000000000000000000000000000000000000000000000000148c89ed219d02f1a5be012c689b4f5b731827bebe000000000000000000000000c001a033fd89cb37c31b2cba46b6466e040c61fc9b2a3675a7f5f493ebd5ad77c497f8a07cdf65680e238392693019b4092f610222e71b7cec06449cb922b93b6a12744e";

describe("fastLzCompressedLength", () => {
  it.each([
    ["nothing", new Uint8Array(0), 0],
    ["a thousand zeros", new Uint8Array(1000), 21],
    ["a thousand 42s", new Uint8Array(1000).fill(42), 21],
    ["three bytes", hex("FACADE"), 4],
    ["a signed contract call", hex(SAMPLE_CALL), 202],
  ])("%s", (_, input, expected) => {
    expect(fastLzCompressedLength(input)).toBe(expected);
  });

  it("grows with every new byte of a sequence that never repeats", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const lengths = Array.from({ length: 256 }, (_, n) => fastLzCompressedLength(bytes.subarray(0, n + 1)));
    lengths.slice(1).forEach((length, i) => expect(length).toBeGreaterThan(lengths[i]!));
  });
});

// Base's scalars in 2025 (baseFeeScalar 2,269, blobBaseFeeScalar 1,055,762) at 10 gwei on L1 and a 1 wei blob base fee.
const BASE: L1BlockFees = { l1BaseFee: 10_000_000_000n, blobBaseFee: 1n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n };

describe("l1FeeOfCompressedSize", () => {
  it.each([
    // Below about 171 compressed bytes the regression gives less than Fjord's floor of 100 bytes.
    ["the floor", 0n, BASE, (100_000_000n * (2_269n * 16n * 10_000_000_000n + 1_055_762n)) / 10n ** 12n],
    ["just under the floor", 170n, BASE, (100_000_000n * (2_269n * 16n * 10_000_000_000n + 1_055_762n)) / 10n ** 12n],
    ["above the floor", 202n, BASE, ((-42_585_600n + 836_500n * 202n) * (2_269n * 16n * 10_000_000_000n + 1_055_762n)) / 10n ** 12n],
    ["no L1 prices", 202n, { ...BASE, l1BaseFee: 0n, blobBaseFee: 0n }, 0n],
    ["the blob base fee alone", 1_000n, { ...BASE, l1BaseFee: 0n, blobBaseFee: 3_000_000_000n }, ((-42_585_600n + 836_500_000n) * 1_055_762n * 3_000_000_000n) / 10n ** 12n],
  ])("%s", (_, size, fees, expected) => {
    expect(l1FeeOfCompressedSize(size, fees)).toBe(expected);
  });

  it("prices the signed bytes by their compressed length", () => {
    expect(fjordL1Fee(hex(SAMPLE_CALL), BASE)).toBe(l1FeeOfCompressedSize(202n, BASE));
  });
});

describe("l1FeeReserve", () => {
  it("keeps at least twice the fee charged however the signed bytes compress (a signature adds at most 70 bytes)", () => {
    for (const bytes of [new Uint8Array(0), new Uint8Array(3000), Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251), hex(SAMPLE_CALL)]) {
      const unsigned = Math.max(0, bytes.length - 70);
      expect(l1FeeReserve(unsigned, BASE)).toBeGreaterThanOrEqual(2n * fjordL1Fee(bytes, BASE));
    }
  });

  it("counts incompressible bytes and the signature: 1,000 unsigned bytes as 1,070 and 34 literal markers", () => {
    expect(l1FeeReserve(1_000, BASE)).toBe(2n * l1FeeOfCompressedSize(1_104n, BASE));
  });
});

describe("L1Block's packed scalars", () => {
  it.each([
    [{ baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n }],
    [{ baseFeeScalar: 0n, blobBaseFeeScalar: 0n }],
    [{ baseFeeScalar: 0xffffffffn, blobBaseFeeScalar: 0xffffffffn }],
  ])("%o round-trips through slot 3", (scalars) => {
    expect(unpackScalars(packScalars(scalars))).toEqual(scalars);
  });

  it("reads only the scalars' bits of slot 3 (sequence number and the rest ignored)", () => {
    const slot3 = packScalars({ baseFeeScalar: 7n, blobBaseFeeScalar: 9n }) | 0xffff_ffff_ffff_ffffn | (0xabn << 128n);
    expect(unpackScalars(slot3)).toEqual({ baseFeeScalar: 7n, blobBaseFeeScalar: 9n });
  });
});
