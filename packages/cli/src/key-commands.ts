import { apiKeyDisplayPrefix, apiKeyEnvironment, generateApiKey, hashApiKey } from "@sweep/common";
import type { CommandContext } from "./context";
import { isUuid } from "./ids";
import { dropCachedKeys, findPartner } from "./partner-commands";

/** `key create ID`: another API key for the partner, printed only here. */
export async function createKey(ctx: CommandContext, partnerId: string): Promise<void> {
  const partner = await findPartner(ctx.db, partnerId);
  const apiKey = generateApiKey(partner.environment);
  const key = await ctx.db.apiKey.create({ data: { partnerId: partner.id, hash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) } });
  const lines = [`api key ${apiKey} (id ${key.id}) for partner ${partner.id}`, "The API key is shown only this once: hand it to the partner now."];
  if (!partner.enabled) lines.push(`Note: partner ${partner.id} is disabled; its keys are refused until it is enabled.`);
  ctx.out.result({ partner_id: partner.id, key_id: key.id, api_key: apiKey }, lines);
}

/** `key revoke KEY`: by the API key itself or by its id (operators seldom hold the key). */
export async function revokeKey(ctx: CommandContext, keyOrId: string): Promise<void> {
  const where = isUuid(keyOrId) ? { id: keyOrId.toLowerCase() } : apiKeyEnvironment(keyOrId) ? { hash: hashApiKey(keyOrId) } : undefined;
  if (!where) throw new Error(`not an API key or key id: ${JSON.stringify(keyOrId.slice(0, 20))}`);
  const key = await ctx.db.apiKey.findUnique({ where });
  if (!key) throw new Error(isUuid(keyOrId) ? `no API key with id ${keyOrId}` : "no such API key");

  const revokedAt = new Date();
  // Guarded by revokedAt in the same UPDATE, so two revocations cannot both claim the key.
  const { count } = await ctx.db.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt } });
  // Also when it was revoked before: a retry after Redis failed must still drop the cached look-up.
  await dropCachedKeys(ctx, [key.hash], `API key ${key.prefix}… is revoked`);
  if (count === 0) {
    const when = key.revokedAt ? ` at ${key.revokedAt.toISOString()}` : "";
    throw new Error(`API key ${key.prefix}… (id ${key.id}) was already revoked${when}`);
  }
  ctx.out.result({ key_id: key.id, partner_id: key.partnerId, prefix: key.prefix, revoked_at: revokedAt.toISOString() }, [
    `API key ${key.prefix}… (id ${key.id}) of partner ${key.partnerId} is revoked`,
  ]);
}
