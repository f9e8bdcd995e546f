import { z } from "zod";
import type { AuthorizationClaim } from "./pre-send-checks";

/** A sweep's authorization as the API stores it: {chain_id, address, nonce, y_parity, r, s}. */
const storedAuthorization = z.object({
  chain_id: z.number().int(),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  nonce: z.number().int().min(0),
  y_parity: z.union([z.literal(0), z.literal(1)]),
  r: z.string(),
  s: z.string(),
});

/** The delegate and nonce of a stored authorization; null when there is none or it cannot be read (then it is never carried). */
export function authorizationClaim(stored: unknown): AuthorizationClaim | null {
  if (stored === null || stored === undefined) return null;
  const parsed = storedAuthorization.safeParse(stored);
  return parsed.success ? { address: parsed.data.address, nonce: parsed.data.nonce } : null;
}
