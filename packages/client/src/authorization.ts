import { keccak_256 } from "@noble/hashes/sha3";
import { bytesToHex, concatBytes, hexToBytes } from "@noble/hashes/utils";
import type { components } from "./generated/openapi";

type Hex = `0x${string}`;

/**
 * The `authorization` object of POST /v1/sweeps and /v1/revocations, as signed here: its address and
 * signature `0x${string}`, as viem takes them (the requests take any string).
 */
export type Authorization = Omit<components["schemas"]["Authorization"], "address" | "r" | "s"> & { address: Hex; r: Hex; s: Hex };

/** What a deposit address authorizes: on chain `chainId`, its account runs the code at `address`. */
export interface AuthorizationTerms {
  chainId: bigint | number;
  /** the hot wallet's delegate, or the zero address to revoke */
  address: string;
  /** the deposit address's nonce when the authorization is applied */
  nonce: bigint | number;
}

/** A secp256k1 signature of the digest; `s` may be high (it is normalised), `yParity` 0 or 1. */
export interface DigestSignature {
  r: string | bigint;
  s: string | bigint;
  yParity: number;
}

/**
 * A signer of authorizations:
 * - an ethers Signer (`authorize`, ethers 6.14 or later), such as a Wallet;
 * - a viem local account (`signAuthorization`, viem 2.22 or later: privateKeyToAccount and the like);
 * - anything that signs a raw 32-byte digest (`signDigest`): an HSM, a KMS or an MPC wallet.
 */
export type AuthorizationSigner =
  | { authorize(request: { address: string; nonce: bigint; chainId: bigint }): Promise<{ signature: { r: string; s: string; yParity: number } }> }
  | { signAuthorization(request: { address: Hex; chainId: number; nonce: number }): Promise<{ r: Hex; s: Hex; yParity?: number }> }
  | { signDigest(digest: Hex): Promise<DigestSignature> };

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const MAGIC = 0x05;

/** keccak256(0x05 || rlp([chain_id, address, nonce])): what EIP-7702 signs. */
export function authorizationDigest(terms: AuthorizationTerms): Hex {
  const payload = rlpList([rlpInteger(BigInt(terms.chainId)), rlpBytes(addressBytes(terms.address)), rlpInteger(BigInt(terms.nonce))]);
  return `0x${bytesToHex(keccak_256(concatBytes(Uint8Array.of(MAGIC), payload)))}`;
}

/** Signs the terms with the deposit address's signer and returns the spec's Authorization (low s). */
export async function signAuthorization(signer: AuthorizationSigner, terms: AuthorizationTerms): Promise<Authorization> {
  if (typeof signer !== "object" || signer === null || !("authorize" in signer || "signAuthorization" in signer || "signDigest" in signer)) {
    const given = typeof signer === "string" ? "a string (a private key?)" : signer === null ? "null" : typeof signer === "object" ? "an object without authorize, signAuthorization or signDigest" : typeof signer;
    throw new TypeError(
      `signAuthorization takes a signer, not ${given}: an ethers Wallet (new Wallet(privateKey)), a viem account (privateKeyToAccount(privateKey)), or { signDigest(digest) } for an HSM, a KMS or an MPC wallet`,
    );
  }
  if ("authorize" in signer) {
    const { signature } = await signer.authorize({ address: terms.address, nonce: BigInt(terms.nonce), chainId: BigInt(terms.chainId) });
    return authorizationOf(terms, signature);
  }
  if ("signAuthorization" in signer) {
    const signed = await signer.signAuthorization({ address: checkedAddress(terms.address), chainId: safeNumber(terms.chainId, "chainId"), nonce: safeNumber(terms.nonce, "nonce") });
    if (signed.yParity === undefined) throw new Error("the signer returned an authorization without yParity");
    return authorizationOf(terms, { r: signed.r, s: signed.s, yParity: signed.yParity });
  }
  return authorizationOf(terms, await signer.signDigest(authorizationDigest(terms)));
}

/**
 * The Authorization of a signature of `authorizationDigest(terms)`, with `s` in the lower half of
 * the curve order (EIP-2): a high `s` is replaced by n − s and the parity flipped, the same signature.
 */
export function authorizationOf(terms: AuthorizationTerms, signature: DigestSignature): Authorization {
  const r = BigInt(signature.r);
  let s = BigInt(signature.s);
  let yParity = signature.yParity;
  if (yParity !== 0 && yParity !== 1) throw new RangeError(`yParity must be 0 or 1, not ${yParity}`);
  if (r <= 0n || r >= SECP256K1_N || s <= 0n || s >= SECP256K1_N) throw new RangeError("r and s must be within the curve order");
  if (s > SECP256K1_N / 2n) {
    s = SECP256K1_N - s;
    yParity ^= 1;
  }
  return {
    chain_id: safeNumber(terms.chainId, "chainId"),
    address: checkedAddress(terms.address),
    nonce: safeNumber(terms.nonce, "nonce"),
    y_parity: yParity,
    r: `0x${r.toString(16)}`,
    s: `0x${s.toString(16)}`,
  };
}

function safeNumber(value: bigint | number, name: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new RangeError(`${name} must be a non-negative integer below 2^53, not ${value}`);
  return number;
}

function checkedAddress(address: string): Hex {
  if (!isAddress(address)) throw new TypeError(`not an address: ${address}`);
  return address;
}

const isAddress = (value: string): value is Hex => /^0x[0-9a-fA-F]{40}$/.test(value);

function addressBytes(address: string): Uint8Array {
  return hexToBytes(checkedAddress(address).slice(2));
}

// RLP, only as much as the authorization tuple needs: byte strings and one list.

function rlpInteger(value: bigint): Uint8Array {
  if (value < 0n) throw new RangeError("RLP integers are non-negative");
  if (value === 0n) return rlpBytes(new Uint8Array(0));
  const hex = value.toString(16);
  return rlpBytes(hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`));
}

function rlpBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 1 && bytes[0]! < 0x80) return bytes;
  return concatBytes(rlpLength(bytes.length, 0x80), bytes);
}

function rlpList(items: Uint8Array[]): Uint8Array {
  const body = concatBytes(...items);
  return concatBytes(rlpLength(body.length, 0xc0), body);
}

function rlpLength(length: number, offset: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length);
  const hex = length.toString(16);
  const lengthBytes = hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`);
  return concatBytes(Uint8Array.of(offset + 55 + lengthBytes.length), lengthBytes);
}
