import { readStoredAuthorization } from "@sweep/chains";
import type { AuthorizationClaim } from "./pre-send-checks";

const ZERO_ADDRESS = /^0x0{40}$/;

/** The delegate and nonce of a stored authorization; null when there is none or it cannot be read (then it is never carried). */
export function authorizationClaim(stored: unknown): AuthorizationClaim | null {
  const parsed = readStoredAuthorization(stored);
  return parsed ? { address: parsed.address, nonce: parsed.nonce } : null;
}

/**
 * The nonce of a revocation's stored authorization; null when it cannot be sent as a revocation:
 * unreadable, of another chain, or signing for anything but the zero address (carried, that would
 * delegate the address instead of freeing it). The API refuses all of these; a row that holds one
 * anyway is rejected invalid_authorization rather than sent.
 */
export function revocationAuthorizationNonce(stored: unknown, chainId: number): number | null {
  const parsed = readStoredAuthorization(stored);
  if (!parsed || parsed.chain_id !== chainId || !ZERO_ADDRESS.test(parsed.address)) return null;
  return parsed.nonce;
}
