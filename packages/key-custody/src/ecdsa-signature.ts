import { N as SECP256K1_N, Signature, computeAddress, hexlify, recoverAddress } from "ethers";

/** Ethereum accepts only s in the lower half of the group (EIP-2); an HSM's ECDSA may return either half. */
export function lowS(s: bigint): bigint {
  return s > SECP256K1_N / 2n ? SECP256K1_N - s : s;
}

/**
 * r and s of a CKM_ECDSA signature. PKCS#11 specifies r || s, each as long as the order (64 bytes
 * for secp256k1); some modules return an ASN.1 DER SEQUENCE of two INTEGERs instead, so both are read.
 */
export function signatureParts(signature: Uint8Array): { r: bigint; s: bigint } {
  if (signature.length === 64) return { r: toBigInt(signature.subarray(0, 32)), s: toBigInt(signature.subarray(32)) };
  if (signature[0] === 0x30) return derParts(signature);
  throw new Error(`a secp256k1 ECDSA signature is 64 bytes (r || s) or DER, not ${signature.length} bytes`);
}

function derParts(der: Uint8Array): { r: bigint; s: bigint } {
  const fail = () => new Error("a malformed DER ECDSA signature");
  if (der.length < 8 || der[1] !== der.length - 2) throw fail();
  let at = 2;
  const integer = () => {
    if (der[at] !== 0x02) throw fail();
    const length = der[at + 1];
    if (length === undefined || length === 0 || length > 33 || at + 2 + length > der.length) throw fail();
    const value = toBigInt(der.subarray(at + 2, at + 2 + length));
    at += 2 + length;
    return value;
  };
  const r = integer();
  const s = integer();
  if (at !== der.length || r === 0n || s === 0n || r >= SECP256K1_N || s >= SECP256K1_N) throw fail();
  return { r, s };
}

/**
 * The Ethereum signature of `digest` by `address` from an HSM's r and s: s made low, and the
 * recovery id the HSM does not give found by trying both parities against the address.
 */
export function ethereumSignature(digest: string, parts: { r: bigint; s: bigint }, address: string): Signature {
  const r = toHex32(parts.r);
  const s = toHex32(lowS(parts.s));
  for (const yParity of [0, 1] as const) {
    const signature = Signature.from({ r, s, yParity });
    if (recoverAddress(digest, signature) === address) return signature;
  }
  throw new Error(`the signature does not recover to ${address}: the token's key is not this gas wallet's`);
}

/**
 * The address of a secp256k1 public key as CKA_EC_POINT holds it: the uncompressed point
 * 04 || X || Y, wrapped in a DER OCTET STRING (as PKCS#11 specifies and SoftHSM2 returns) or bare.
 */
export function ecPointAddress(ecPoint: Uint8Array): string {
  const point = ecPoint.length === 67 && ecPoint[0] === 0x04 && ecPoint[1] === 65 ? ecPoint.subarray(2) : ecPoint;
  if (point.length !== 65 || point[0] !== 0x04) throw new Error(`CKA_EC_POINT is not an uncompressed secp256k1 point (${ecPoint.length} bytes)`);
  return computeAddress(hexlify(point));
}

/** DER of the secp256k1 OID 1.3.132.0.10, the CKA_EC_PARAMS of a secp256k1 key. */
export const SECP256K1_EC_PARAMS = Buffer.from("06052b8104000a", "hex");

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt("0x" + Buffer.from(bytes).toString("hex"));
}

function toHex32(value: bigint): string {
  return "0x" + value.toString(16).padStart(64, "0");
}
