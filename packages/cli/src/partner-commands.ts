import { createSealedGasWalletKey, resolveKeks } from "@sweep/chain";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, invalidatePartnerKeys } from "@sweep/common";
import type { Db } from "@sweep/db";
import type { CommandContext } from "./context";
import { requirePartnerId } from "./ids";

const MAX_NAME_LENGTH = 200;

/**
 * `partner create --name N`: the partner, its gas wallet (a new key sealed under the current
 * key-encryption key) and a first API key, in one transaction. The API key is printed only here.
 */
export async function createPartner(ctx: CommandContext, name: string): Promise<void> {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > MAX_NAME_LENGTH) throw new Error(`a partner name has 1 to ${MAX_NAME_LENGTH} characters`);
  const environment = ctx.config.SERVICE_ENV;
  const gasWallet = createSealedGasWalletKey(resolveKeks(ctx.config, (warning) => ctx.out.note(warning)).current);
  const apiKey = generateApiKey(environment);
  // One nested write: Prisma runs it as a single transaction.
  const partner = await ctx.db.partner.create({
    data: {
      name: trimmed,
      environment,
      gasWallet: { create: gasWallet },
      apiKeys: { create: { hash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) } },
    },
  });
  ctx.out.result({ partner_id: partner.id, api_key: apiKey, gas_wallet: gasWallet.address }, [
    `partner     ${partner.id}  ${trimmed} (${environment})`,
    `gas wallet  ${gasWallet.address}`,
    `api key     ${apiKey}`,
    "The API key is shown only this once: hand it to the partner now.",
  ]);
}

/**
 * `partner disable|enable ID`. The api-gateway caches key look-ups, so the partner's cached keys
 * are dropped after the update; the change then holds from the next request on.
 */
export async function setPartnerEnabled(ctx: CommandContext, id: string, enabled: boolean): Promise<void> {
  const partner = await findPartner(ctx.db, id);
  await ctx.db.partner.update({ where: { id: partner.id }, data: { enabled } });
  const keys = await ctx.db.apiKey.findMany({ where: { partnerId: partner.id }, select: { hash: true } });
  const state = enabled ? "enabled" : "disabled";
  await dropCachedKeys(ctx, keys.map((k) => k.hash), `partner ${partner.id} is ${state}`);
  ctx.out.result({ partner_id: partner.id, enabled }, [`partner ${partner.id} (${partner.name}) is ${state}`]);
}

export async function findPartner(db: Db, id: string) {
  const partner = await db.partner.findUnique({ where: { id: requirePartnerId(id) } });
  if (!partner) throw new Error(`no partner with id ${id}`);
  return partner;
}

/** Drops cached look-ups of these keys; `done` says what has already happened in the database. */
export async function dropCachedKeys(ctx: CommandContext, hashes: string[], done: string): Promise<void> {
  try {
    await invalidatePartnerKeys(await ctx.redis(), hashes);
  } catch (err) {
    throw new Error(
      `${done}, but the cached API key look-ups could not be dropped (${(err as Error).message}): ` +
        "the API may act on the old state until they expire; run the command again once Redis answers",
    );
  }
}
