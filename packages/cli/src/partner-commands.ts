import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, invalidatePartnerKeys } from "@sweep/credentials";
import type { Db, OutboxDraft, Tx } from "@sweep/db";
import { outboxDraft, queueNames, type QueueNames } from "@sweep/messaging";
import type { CommandContext } from "./context";
import { newGasWalletKey } from "./gas-wallet-keys";
import { requirePartnerId } from "./ids";

const MAX_NAME_LENGTH = 200;

/**
 * `partner create --name N`: the partner, its gas wallet (a new key sealed under the current
 * key-encryption key, or generated in the PKCS#11 token) and a first API key, in one transaction.
 * The API key is printed only here.
 */
export async function createPartner(ctx: CommandContext, name: string): Promise<void> {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > MAX_NAME_LENGTH) throw new Error(`a partner name has 1 to ${MAX_NAME_LENGTH} characters`);
  const environment = ctx.config.SERVICE_ENV;
  const key = newGasWalletKey(ctx);
  const gasWallet = key.record;
  const apiKey = generateApiKey(environment);
  let partner;
  try {
    // One nested write: Prisma runs it as a single transaction.
    partner = await ctx.db.partner.create({
      data: {
        name: trimmed,
        environment,
        gasWallet: { create: gasWallet },
        apiKeys: { create: { hash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) } },
      },
      include: { apiKeys: { select: { id: true } } },
    });
  } catch (err) {
    // A token key no row names would be an orphan in the HSM.
    key.discard();
    throw err;
  } finally {
    key.close();
  }
  const keyId = partner.apiKeys[0]!.id;
  ctx.out.result({ partner_id: partner.id, key_id: keyId, api_key: apiKey, gas_wallet: gasWallet.address }, [
    `partner     ${partner.id}  ${trimmed} (${environment})`,
    `gas wallet  ${gasWallet.address}`,
    `api key     ${apiKey}  (id ${keyId}: revoke it by that)`,
    "The API key is shown only this once: hand it to the partner now.",
  ]);
}

/**
 * `partner disable|enable ID`. The api-gateway caches key look-ups, so the partner's cached keys
 * are dropped after the update; the change then holds from the next request on. Enabling also
 * wakes the work that waited while the partner was disabled, in the same transaction.
 */
export async function setPartnerEnabled(ctx: CommandContext, id: string, enabled: boolean): Promise<void> {
  const partner = await findPartner(ctx.db, id);
  const names = queueNames(ctx.config.AMQP_PREFIX);
  const wakes = await ctx.db.$transaction(async (tx) => {
    await tx.partner.update({ where: { id: partner.id }, data: { enabled } });
    return enabled ? wakeWaitingWork(tx, names, partner.id) : 0;
  });
  const keys = await ctx.db.apiKey.findMany({ where: { partnerId: partner.id }, select: { hash: true } });
  const state = enabled ? "enabled" : "disabled";
  await dropCachedKeys(ctx, keys.map((k) => k.hash), `partner ${partner.id} is ${state}`);
  ctx.out.result({ partner_id: partner.id, enabled }, [`partner ${partner.id} (${partner.name}) is ${state}`]);
  if (wakes > 0) ctx.out.note(`${wakes} wake message(s) for its waiting work written to the outbox: the outbox relay of any running service publishes them`);
}

/**
 * Outbox messages that restart what a disabled partner's work waited in: a round for each active
 * hot wallet with queued sweeps, a deployment for each pending hot wallet (nothing else asks for
 * one again), and the revocation round of each chain with queued revocations (one message starts
 * the round of all of them). The batcher's poll would find the sweeps and revocations too; the
 * messages only spare the wait. Returns how many were written.
 */
async function wakeWaitingWork(tx: Tx, names: QueueNames, partnerId: string): Promise<number> {
  const sweeping = await tx.hotWallet.findMany({ where: { partnerId, status: "active", sweeps: { some: { status: "queued" } } }, select: { id: true, chainId: true } });
  const pending = await tx.hotWallet.findMany({ where: { partnerId, status: "pending" }, select: { id: true, chainId: true } });
  const revocations = await tx.revocation.findMany({
    where: { partnerId, status: "queued" },
    distinct: ["chainId"],
    orderBy: [{ chainId: "asc" }, { seq: "asc" }],
    select: { id: true, chainId: true },
  });
  const drafts: OutboxDraft[] = [
    ...sweeping.map((h) => outboxDraft("hot_wallet.wake", { hotWalletId: h.id, chainId: h.chainId }, names)),
    ...pending.map((h) => outboxDraft("hot_wallet.deploy", { hotWalletId: h.id, chainId: h.chainId }, names)),
    ...revocations.map((r) => outboxDraft("revocation.queued", { revocationId: r.id, chainId: r.chainId }, names)),
  ];
  if (drafts.length > 0) await tx.outboxMessage.createMany({ data: drafts });
  return drafts.length;
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
