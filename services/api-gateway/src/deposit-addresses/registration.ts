import type { DepositAddressRegistration } from "@sweep/api-contract";
import type { StoredAuthorization } from "@sweep/chains";
import { depositAddressViewSelect, type Db, type DepositAddressView } from "@sweep/db";
import { verifyAuthorization } from "../authorization";
import { checksumAddress, servedChain, type GatewayChain } from "../chains";
import { ApiError } from "../http/api-error";

export interface DepositAddressRegistrationDeps {
  db: Db;
  chains: ReadonlyMap<number, GatewayChain>;
}

/**
 * POST /v1/deposit-addresses after the schema: the chain, the hot wallet, then every address and
 * its authorization (each once, each signed by its address for this chain and the hot wallet's
 * delegate), all before anything is stored: one refusal refuses the request, naming the address.
 * Then one statement stores them all (registerChecked).
 */
export async function registerDepositAddresses(deps: DepositAddressRegistrationDeps, partnerId: string, request: DepositAddressRegistration): Promise<DepositAddressView[]> {
  const chain = servedChain(deps.chains, request.chain_id);
  const hotWalletAddress = checksumAddress(request.hot_wallet);
  const hotWallet = await deps.db.hotWallet.findUnique({ where: { partnerId_chainId_address: { partnerId, chainId: chain.chainId, address: hotWalletAddress } }, select: { delegate: true } });
  if (!hotWallet) throw new ApiError("unknown_hot_wallet", `hot wallet ${hotWalletAddress} is not registered on chain ${chain.chainId}; register it with POST /v1/hot-wallets first`);

  const seen = new Map<string, number>();
  const checked = request.addresses.map((item, index): CheckedAddress => {
    const address = checksumAddress(item.address);
    const earlier = seen.get(address);
    if (earlier !== undefined) throw new ApiError("invalid_address", `addresses.${index}.address ${address} is also addresses.${earlier}.address: give each address once`);
    seen.set(address, index);
    const verdict = verifyAuthorization(item.authorization, { chainId: chain.chainId, delegate: hotWallet.delegate, delegateName: `this hot wallet's delegate ${hotWallet.delegate}`, signer: address });
    // The message keeps the spec's prefix of its cause first, then names the address.
    if (!verdict.ok) throw new ApiError("invalid_authorization", `${verdict.message} (addresses.${index}, ${address})`);
    return { address, authorization: verdict.authorization };
  });
  return registerChecked(deps.db, partnerId, chain.chainId, hotWallet.delegate, checked);
}

interface CheckedAddress {
  address: string;
  authorization: StoredAuthorization;
}

/**
 * The addresses into the inventory in one statement, each holding its new authorization as its
 * latest: authorized (a compromised one cleared), or still delegated where it already runs this
 * delegate (as a sweep's authorization does, sweeps/sweep-insert.ts). Returned in the request's order.
 */
async function registerChecked(db: Db, partnerId: string, chainId: number, delegate: string, checked: readonly CheckedAddress[]): Promise<DepositAddressView[]> {
  const addresses = checked.map((c) => c.address);
  await db.$executeRaw`
    INSERT INTO deposit_addresses AS d (id, partner_id, chain_id, address, delegation, delegate, "authorization", updated_at)
    SELECT gen_random_uuid(), ${partnerId}::uuid, ${chainId}, item.address, 'authorized', ${delegate}, item.signed, now()
      FROM unnest(${addresses}::text[], ${checked.map((c) => JSON.stringify(c.authorization))}::jsonb[]) WITH ORDINALITY AS item(address, signed, position)
     ORDER BY item.position
    ON CONFLICT (partner_id, chain_id, address) DO UPDATE SET
      delegation = CASE WHEN d.delegation = 'delegated' AND d.delegate = EXCLUDED.delegate THEN d.delegation ELSE 'authorized' END,
      delegate = EXCLUDED.delegate,
      "authorization" = EXCLUDED."authorization",
      compromised_tx_hash = NULL,
      compromised_block = NULL,
      compromised_from = NULL,
      updated_at = now()`;
  const rows = await db.depositAddress.findMany({ where: { partnerId, chainId, address: { in: addresses } }, select: depositAddressViewSelect });
  const byAddress = new Map(rows.map((row) => [row.address, row]));
  return addresses.map((address) => byAddress.get(address)!);
}
