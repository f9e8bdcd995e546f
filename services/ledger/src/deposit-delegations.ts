import type { Tx } from "@sweep/db";

/**
 * What a settled batch tells the partner's deposit-address inventory of its addresses' delegations
 * (docs/deposit-addresses.md), in the batch's database transaction: a swept sweep shows its address
 * running its hot wallet's delegate (the authorization it carried applied, or one applied before),
 * a revoked revocation shows the delegation gone. Neither clears a `compromised` mark (the firewall
 * reads at the head, before this settlement: only a new authorization of the partner clears it), and
 * a revocation leaves an authorization registered after it (a higher nonce) held.
 */
export async function recordSweptDelegations(tx: Tx, sweepIds: readonly string[]): Promise<void> {
  if (sweepIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE deposit_addresses d SET delegation = 'delegated', delegate = h.delegate, updated_at = now()
      FROM sweeps s JOIN hot_wallets h ON h.id = s.hot_wallet_id
     WHERE s.id = ANY(${sweepIds}::uuid[]) AND d.partner_id = s.partner_id AND d.chain_id = s.chain_id AND d.address = s.account
       AND d.delegation <> 'compromised'`;
}

export async function recordRevokedDelegations(tx: Tx, revocationIds: readonly string[]): Promise<void> {
  if (revocationIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE deposit_addresses d SET delegation = 'revoked', delegate = NULL, updated_at = now()
      FROM revocations r
     WHERE r.id = ANY(${revocationIds}::uuid[]) AND d.partner_id = r.partner_id AND d.chain_id = r.chain_id AND d.address = r.account
       AND d.delegation <> 'compromised'
       AND NOT (d.delegation = 'authorized' AND (d."authorization" ->> 'nonce')::bigint > (r."authorization" ->> 'nonce')::bigint)`;
}
