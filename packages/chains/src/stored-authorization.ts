import { z } from "zod";

/**
 * An EIP-7702 authorization as a sweep or a revocation stores it (the API writes it, the batcher
 * checks it, the chain-sender signs it into the transaction): {chain_id, address, nonce, y_parity, r, s}.
 * The shape every reader agrees on; what one edge needs beyond it stays there: the API writes only
 * the request's chain, the EIP-55 address and r and s as 32-byte words; the batcher sends a
 * revocation only for the zero address of its chain; the chain-sender carries only a chain other
 * than 0 (any chain) and a checksum and signature ethers accepts.
 */
export const StoredAuthorization = z.object({
  chain_id: z.number().int(),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  nonce: z.number().int().min(0),
  y_parity: z.union([z.literal(0), z.literal(1)]),
  r: z.string(),
  s: z.string(),
});

export type StoredAuthorization = z.infer<typeof StoredAuthorization>;

/** The stored authorization, or null when there is none or it cannot be read. */
export function readStoredAuthorization(stored: unknown): StoredAuthorization | null {
  const parsed = StoredAuthorization.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
