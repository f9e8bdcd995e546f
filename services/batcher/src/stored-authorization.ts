import { z } from "zod";
import type { AuthorizationClaim } from "./pre-send-checks";

/** An authorization as the API stores it (a sweep's or a revocation's): {chain_id, address, nonce, y_parity, r, s}. */
const storedAuthorization = z.object({
  chain_id: z.number().int(),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  nonce: z.number().int().min(0),
  y_parity: z.union([z.literal(0), z.literal(1)]),
  r: z.string(),
  s: z.string(),
});

const ZERO_ADDRESS = /^0x0{40}$/;

/** The delegate and nonce of a stored authorization; null when there is none or it cannot be read (then it is never carried). */
export function authorizationClaim(stored: unknown): AuthorizationClaim | null {
  if (stored === null || stored === undefined) return null;
  const parsed = storedAuthorization.safeParse(stored);
  return parsed.success ? { address: parsed.data.address, nonce: parsed.data.nonce } : null;
}

/**
 * The nonce of a revocation's stored authorization; null when it cannot be sent as a revocation:
 * unreadable, of another chain, or signing for anything but the zero address (carried, that would
 * delegate the address instead of freeing it). The API refuses all of these; a row that holds one
 * anyway is rejected invalid_authorization rather than sent.
 */
export function revocationAuthorizationNonce(stored: unknown, chainId: number): number | null {
  const parsed = storedAuthorization.safeParse(stored);
  if (!parsed.success || parsed.data.chain_id !== chainId || !ZERO_ADDRESS.test(parsed.data.address)) return null;
  return parsed.data.nonce;
}
