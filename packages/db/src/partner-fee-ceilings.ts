import type { Db, Tx } from "./client";
import { toBigInt } from "./decimal";

/**
 * The partner's own ceiling on the max fee per gas on a chain (Settings.fee_ceilings), found by the
 * partner or by its gas wallet; null when it set none.
 */
export async function partnerMaxFeePerGas(db: Db | Tx, owner: { partnerId: string } | { gasWalletId: string }, chainId: number): Promise<bigint | null> {
  const partnerId = "partnerId" in owner ? owner.partnerId : (await db.gasWallet.findUniqueOrThrow({ where: { id: owner.gasWalletId }, select: { partnerId: true } })).partnerId;
  const row = await db.partnerFeeCeiling.findUnique({ where: { partnerId_chainId: { partnerId, chainId } }, select: { maxFeePerGas: true } });
  return row ? toBigInt(row.maxFeePerGas) : null;
}
