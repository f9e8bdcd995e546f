import { computeAddress, getBytes, hashAuthorization, hexlify, type AuthorizationRequest } from "ethers";
// libsecp256k1 through the package's prebuilt binding (it falls back to JavaScript where none
// fits): recovering the signer in JavaScript, as ethers does, costs about 1.5 ms of CPU per
// first-time sweep on a 2-core machine, the native library about 0.13 ms.
import { ecdsaRecover } from "secp256k1";

export interface AuthorizationSignature {
  /** 0x and 64 hex digits */
  r: string;
  s: string;
  yParity: 0 | 1;
}

/**
 * The address that signed an EIP-7702 authorization. Throws when no key could have signed it (r
 * is not the x-coordinate of a curve point); the signature's range is the caller's check.
 */
export function recoverAuthorizationSigner(authorization: AuthorizationRequest & { nonce: bigint; chainId: bigint }, signature: AuthorizationSignature): string {
  const rs = new Uint8Array(64);
  rs.set(getBytes(signature.r), 0);
  rs.set(getBytes(signature.s), 32);
  const publicKey = ecdsaRecover(rs, signature.yParity, getBytes(hashAuthorization(authorization)), false);
  return computeAddress(hexlify(publicKey));
}
