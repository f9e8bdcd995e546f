import { apiKeyEnvironment, apiKeyPrefix, hashApiKey } from "@sweep/credentials";
import { issueApiKey, revokeApiKey } from "@sweep/db";
import type { CommandContext } from "./context";
import { isUuid } from "./ids";
import { dropCachedKeys, findPartner } from "./partner-commands";

/** `key create ID`: another API key for the partner, printed only here. */
export async function createKey(ctx: CommandContext, partnerId: string): Promise<void> {
  const partner = await findPartner(ctx.db, partnerId);
  const key = await issueApiKey(ctx.db, partner.id, partner.environment);
  const lines = [
    `api key ${key.key} (id ${key.id}) for partner ${partner.id}`,
    "The API key is shown only this once: hand it to the partner now.",
    `Revoke it by its id: sweepctl key revoke ${key.id}`,
  ];
  if (!partner.enabled) lines.push(`Note: partner ${partner.id} is disabled; its keys are refused until it is enabled.`);
  ctx.out.result({ partner_id: partner.id, key_id: key.id, api_key: key.key }, lines);
}

/** The length of what apiKeyDisplayPrefix shows: the environment's prefix and six characters. */
const DISPLAY_PREFIX_LENGTH = apiKeyPrefix.testnet.length + 6;

/**
 * `key revoke KEY`: by its id or its display prefix (`svc_test_ab12cd`, as `key create` and the
 * logs show it), which keep the key itself out of shell history, or by the API key itself.
 */
export async function revokeKey(ctx: CommandContext, keyOrId: string): Promise<void> {
  const key = await findKey(ctx, keyOrId);

  const revokedAt = new Date();
  const revoked = await revokeApiKey(ctx.db, key.id, revokedAt);
  // Also when it was revoked before: a retry after Redis failed must still drop the cached look-up.
  await dropCachedKeys(ctx, [key.hash], `API key ${key.prefix}… is revoked`);
  if (!revoked) {
    const when = key.revokedAt ? ` at ${key.revokedAt.toISOString()}` : "";
    throw new Error(`API key ${key.prefix}… (id ${key.id}) was already revoked${when}`);
  }
  ctx.out.result({ key_id: key.id, partner_id: key.partnerId, prefix: key.prefix, revoked_at: revokedAt.toISOString() }, [
    `API key ${key.prefix}… (id ${key.id}) of partner ${key.partnerId} is revoked`,
  ]);
}

async function findKey(ctx: CommandContext, keyOrId: string) {
  if (isUuid(keyOrId)) {
    const key = await ctx.db.apiKey.findUnique({ where: { id: keyOrId.toLowerCase() } });
    if (!key) throw new Error(`no API key with id ${keyOrId}`);
    return key;
  }
  // The prefix as printed may keep its ellipsis.
  const prefix = keyOrId.replace(/(…|\.\.\.)$/, "");
  if (apiKeyEnvironment(prefix) && prefix.length === DISPLAY_PREFIX_LENGTH) {
    const keys = await ctx.db.apiKey.findMany({ where: { prefix }, orderBy: { createdAt: "asc" } });
    if (keys.length === 0) throw new Error(`no API key with prefix ${prefix}`);
    // 36 random bits: two keys may share one; revoking either on a guess would be wrong.
    if (keys.length > 1) throw new Error(`${keys.length} API keys have prefix ${prefix}: give the key id, one of ${keys.map((k) => k.id).join(", ")}`);
    return keys[0]!;
  }
  if (!apiKeyEnvironment(keyOrId)) throw new Error(`not an API key, key id or key prefix: ${JSON.stringify(keyOrId.slice(0, 20))}`);
  const key = await ctx.db.apiKey.findUnique({ where: { hash: hashApiKey(keyOrId) } });
  if (!key) throw new Error("no such API key");
  return key;
}
