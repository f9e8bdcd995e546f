import { randomUUID } from "node:crypto";
import type { StoredAuthorization } from "@sweep/chains";
import type { OutboxDraft } from "@sweep/db";
import type { Pool } from "pg";
import { DuplicateExternalId, violatesUnique } from "../external-id-conflict";

/** A new revocation as the request resolved it; the database adds the times. */
export interface RevocationDraft {
  id: string;
  partnerId: string;
  externalId: string | null;
  chainId: number;
  /** EIP-55 */
  account: string;
  authorization: StoredAuthorization;
}

export interface InsertedRevocation {
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The revocation, its outbox message and its address in the partner's inventory (its last
 * activity; an address new to it is of unknown delegation) in ONE statement, atomic like a
 * transaction, through pg as POST /v1/sweeps does (see sweeps/sweep-insert.ts for why not Prisma).
 * Named, so each connection parses and plans it once.
 */
const INSERT_REVOCATION = `
WITH revocation AS (
  INSERT INTO revocations (id, partner_id, external_id, chain_id, account, "authorization", updated_at)
  VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6::jsonb, now())
  RETURNING created_at, updated_at
), message AS (
  INSERT INTO outbox (message_id, exchange, routing_key, type, payload)
  SELECT $7::uuid, $8, $9, $10, $11::jsonb FROM revocation
), inventory AS (
  INSERT INTO deposit_addresses (id, partner_id, chain_id, address, delegation, last_activity_at, updated_at)
  SELECT gen_random_uuid(), $2::uuid, $4, $5, 'unknown', created_at, now() FROM revocation
  ON CONFLICT (partner_id, chain_id, address) DO UPDATE SET last_activity_at = EXCLUDED.last_activity_at, updated_at = now()
)
SELECT created_at AS "createdAt", updated_at AS "updatedAt" FROM revocation`;

/** Throws DuplicateExternalId when the account already has a revocation of this external_id. */
export async function insertRevocation(pool: Pool, revocation: RevocationDraft, message: OutboxDraft): Promise<InsertedRevocation> {
  try {
    const { rows } = await pool.query<InsertedRevocation>({
      name: "insert-revocation",
      text: INSERT_REVOCATION,
      values: [
        revocation.id,
        revocation.partnerId,
        revocation.externalId,
        revocation.chainId,
        revocation.account,
        JSON.stringify(revocation.authorization),
        randomUUID(),
        message.exchange,
        message.routingKey,
        message.type,
        JSON.stringify(message.payload),
      ],
    });
    return rows[0]!;
  } catch (err) {
    if (violatesUnique(err, "revocations_partner_id_external_id_key")) throw new DuplicateExternalId();
    throw err;
  }
}
