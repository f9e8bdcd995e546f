import { N as SECP256K1_N, SigningKey, Wallet, keccak256, toUtf8Bytes } from "ethers";
import { ecPointAddress, ethereumSignature, lowS, signatureParts } from "./ecdsa-signature";

const half = SECP256K1_N / 2n;
const bytes32 = (value: bigint) => Buffer.from(value.toString(16).padStart(64, "0"), "hex");
/** A DER INTEGER: big-endian, minimal, with a 0x00 in front when the top bit is set. */
const derInteger = (value: bigint) => {
  const hex = value.toString(16);
  let body = Buffer.from(hex.length % 2 ? "0" + hex : hex, "hex");
  if (body[0]! & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
  return Buffer.concat([Buffer.from([0x02, body.length]), body]);
};
const der = (r: bigint, s: bigint) => {
  const body = Buffer.concat([derInteger(r), derInteger(s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
};

describe("low-s normalisation", () => {
  it.each([
    ["1 stays", 1n, 1n],
    ["n/2 stays", half, half],
    ["n/2 + 1 becomes n/2", half + 1n, half],
    ["n - 1 becomes 1", SECP256K1_N - 1n, 1n],
  ])("%s", (_name, s, expected) => expect(lowS(s)).toBe(expected));
});

describe("CKM_ECDSA signature parts", () => {
  const r = 0x8f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8n;
  const s = 0x1234n;
  it.each([
    ["raw r || s (PKCS#11)", Buffer.concat([bytes32(r), bytes32(s)]), { r, s }],
    ["DER, r with its sign byte", der(r, s), { r, s }],
    ["DER, short s", der(0x7fn, s), { r: 0x7fn, s }],
  ])("reads %s", (_name, signature, expected) => expect(signatureParts(signature)).toEqual(expected));

  it.each([
    ["63 bytes", Buffer.alloc(63, 1)],
    ["DER with a wrong length", Buffer.concat([Buffer.from([0x30, 0x10]), der(r, s).subarray(2)])],
    ["DER with r = 0", der(0n, s)],
    ["DER with trailing bytes", (() => { const d = Buffer.concat([der(r, s), Buffer.from([0])]); d[1] = d[1]! + 1; return d; })()],
    ["DER with s = n", der(r, SECP256K1_N)],
  ])("refuses %s", (_name, signature) => expect(() => signatureParts(signature)).toThrow());
});

describe("the Ethereum signature from an HSM's r and s", () => {
  const wallet = Wallet.createRandom();
  const digests = ["a", "b", "c", "d", "e", "f"].map((m) => keccak256(toUtf8Bytes(m)));

  it.each(digests)("finds the recovery id and a low s for digest %s, whichever half s came in", (digest) => {
    const expected = wallet.signingKey.sign(digest);
    for (const s of [BigInt(expected.s), SECP256K1_N - BigInt(expected.s)]) {
      const signature = ethereumSignature(digest, { r: BigInt(expected.r), s }, wallet.address);
      expect(signature.serialized).toBe(expected.serialized);
    }
  });

  it("refuses a signature of another key", () => {
    const other = new SigningKey(Wallet.createRandom().privateKey).sign(digests[0]!);
    expect(() => ethereumSignature(digests[0]!, { r: BigInt(other.r), s: BigInt(other.s) }, wallet.address)).toThrow(/does not recover/);
  });
});

describe("the address of CKA_EC_POINT", () => {
  const wallet = Wallet.createRandom();
  const point = Buffer.from(wallet.signingKey.publicKey.slice(2), "hex");
  it.each([
    ["DER OCTET STRING", Buffer.concat([Buffer.from([0x04, 65]), point])],
    ["bare point", point],
  ])("reads a %s", (_name, ecPoint) => expect(ecPointAddress(ecPoint)).toBe(wallet.address));

  it("refuses a compressed point", () => {
    expect(() => ecPointAddress(Buffer.from(wallet.signingKey.compressedPublicKey.slice(2), "hex"))).toThrow(/uncompressed/);
  });
});
