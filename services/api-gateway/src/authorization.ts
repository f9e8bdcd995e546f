import type { Authorization } from "@sweep/api-contract";
import { recoverAuthorizationSigner, type StoredAuthorization } from "@sweep/chains";
import { N as SECP256K1_N } from "ethers";
import { ApiError } from "./http/api-error";
import { checksumAddress } from "./chains";

/** secp256k1's curve order; EIP-2 refuses s above half of it. */
const HALF_CURVE_ORDER = SECP256K1_N / 2n;

export interface AuthorizationExpectation {
  /** the request's chain */
  chainId: number;
  /** what the deposit address must delegate to: the hot wallet's delegate (zero address for a revocation) */
  delegate: string;
  /** the delegate as a refusal names it: "this hot wallet's delegate 0x…", "the zero address" */
  delegateName: string;
  /** who must have signed: the deposit address */
  signer: string;
}

export type AuthorizationVerdict = { ok: true; authorization: StoredAuthorization } | { ok: false; message: string };

const word = (hex: string) => `0x${hex.slice(2).toLowerCase().padStart(64, "0")}`;
const refuse = (message: string): AuthorizationVerdict => ({ ok: false, message });

/**
 * Checks an authorization against the request, in the spec's order: chain, delegate, signature
 * range, signer. Each refusal's message starts with the spec's prefix for its cause; a field that
 * the schema let through but that cannot be used gets a message without those prefixes.
 */
export function verifyAuthorization(auth: Authorization, expected: AuthorizationExpectation): AuthorizationVerdict {
  if (auth.chain_id === 0) return refuse(`invalid authorization: chain 0 (any chain) is refused; sign it for chain ${expected.chainId}`);
  if (auth.chain_id !== expected.chainId) return refuse(`invalid authorization: chain ${auth.chain_id} is not the request's chain ${expected.chainId}`);

  const address = checksumAddress(auth.address);
  if (address !== checksumAddress(expected.delegate)) return refuse(`invalid authorization: delegates to ${address}, not to ${expected.delegateName}`);

  const r = BigInt(auth.r);
  const s = BigInt(auth.s);
  if (r === 0n || r >= SECP256K1_N) return refuse("invalid authorization: signature r is out of range (0 < r < secp256k1n)");
  if (s === 0n || s >= SECP256K1_N) return refuse("invalid authorization: signature s is out of range (0 < s < secp256k1n)");
  if (s > HALF_CURVE_ORDER) return refuse("invalid authorization: signature s is in the upper half of the curve order (EIP-2)");

  // The request's schema holds y_parity to 0 or 1.
  const stored: StoredAuthorization = { chain_id: auth.chain_id, address, nonce: auth.nonce, y_parity: auth.y_parity as 0 | 1, r: word(auth.r), s: word(auth.s) };
  let recovered: string;
  try {
    recovered = recoverAuthorizationSigner({ address, nonce: BigInt(auth.nonce), chainId: BigInt(auth.chain_id) }, { r: stored.r, s: stored.s, yParity: stored.y_parity });
  } catch {
    // r is not the x-coordinate of any curve point: no key signed this.
    return refuse("invalid authorization: signature does not recover to any signer");
  }
  const signer = checksumAddress(expected.signer);
  if (recovered !== signer) return refuse(`signed by ${recovered}, not the deposit address ${signer}`);
  return { ok: true, authorization: stored };
}

/** verifyAuthorization for a request: the stored shape, or 422 invalid_authorization with the refusal's message. */
export function verifiedAuthorization(auth: Authorization, expected: AuthorizationExpectation): StoredAuthorization {
  const verdict = verifyAuthorization(auth, expected);
  if (!verdict.ok) throw new ApiError("invalid_authorization", verdict.message);
  return verdict.authorization;
}
