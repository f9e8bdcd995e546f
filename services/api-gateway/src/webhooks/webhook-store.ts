import { randomBytes } from "node:crypto";
import type { LowBalanceAlertRow, WebhookRow } from "@sweep/api-contract";
import type { Db, Tx } from "@sweep/db";
import { dropPendingDeliveries } from "@sweep/lifecycle";

/** A partner's webhook with its low balance alerts, as the Webhook response shows them. */
export interface WebhookSettings {
  webhook: WebhookRow;
  alerts: LowBalanceAlertRow[];
}

export interface WebhookChange {
  url: string;
  alerts: ReadonlyArray<{ chainId: number; threshold: bigint }>;
}

/** Also the dispatcher's prefix check: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

const webhookSelect = { url: true, secret: true, previousSecretUntil: true } as const;

/** How long deliveries are signed with the secret before a rotation too. */
export const PREVIOUS_SECRET_HOURS = 24;
const alertSelect = { chainId: true, threshold: true, low: true } as const;

export async function readWebhook(db: Db | Tx, partnerId: string): Promise<WebhookSettings | null> {
  const [webhook, alerts] = await Promise.all([
    db.webhook.findUnique({ where: { partnerId }, select: webhookSelect }),
    db.lowBalanceAlert.findMany({ where: { partnerId }, select: alertSelect }),
  ]);
  return webhook && { webhook, alerts };
}

/**
 * PUT /v1/webhook: the URL is set (a new webhook gets a secret, an existing one keeps its own)
 * and the alerts become exactly those sent. An alert sent again with the same threshold keeps its
 * `low`, so repeating a PUT never fires balance.low again; a new or changed threshold starts
 * armed (low false), and the ledger judges it at the next balance change.
 */
export async function setWebhook(db: Db, partnerId: string, change: WebhookChange): Promise<WebhookSettings> {
  const chainIds = change.alerts.map((alert) => alert.chainId);
  const thresholds = change.alerts.map((alert) => alert.threshold.toString());
  return db.$transaction(async (tx) => {
    await tx.webhook.upsert({ where: { partnerId }, create: { partnerId, url: change.url, secret: newWebhookSecret() }, update: { url: change.url } });
    await tx.$executeRaw`DELETE FROM low_balance_alerts WHERE partner_id = ${partnerId}::uuid AND NOT (chain_id = ANY(${chainIds}::int[]))`;
    if (change.alerts.length > 0) {
      await tx.$executeRaw`
        INSERT INTO low_balance_alerts (partner_id, chain_id, threshold, low)
        SELECT ${partnerId}::uuid, alert.chain_id, alert.threshold, false
        FROM unnest(${chainIds}::int[], ${thresholds}::numeric[]) AS alert(chain_id, threshold)
        ON CONFLICT (partner_id, chain_id) DO UPDATE
        SET threshold = EXCLUDED.threshold, low = low_balance_alerts.low AND low_balance_alerts.threshold = EXCLUDED.threshold`;
    }
    return (await readWebhook(tx, partnerId))!;
  });
}

/**
 * POST /v1/webhook/rotate-secret: a new secret, and the one it replaces kept for
 * PREVIOUS_SECRET_HOURS, during which the dispatcher signs with both. A second rotation within them
 * keeps only the secret it replaces: two secrets at most. Null when no webhook is set.
 */
export async function rotateWebhookSecret(db: Db, partnerId: string): Promise<WebhookSettings | null> {
  const rotated = await db.$executeRaw`
    UPDATE webhooks SET previous_secret = secret, previous_secret_until = now() + ${`${PREVIOUS_SECRET_HOURS} hours`}::interval,
           secret = ${newWebhookSecret()}, updated_at = now()
     WHERE partner_id = ${partnerId}::uuid`;
  return rotated === 0 ? null : readWebhook(db, partnerId);
}

/**
 * DELETE /v1/webhook: the webhook and its alerts go, and the deliveries not yet made are
 * dropped (failed, `webhook removed`). False when no webhook was set.
 */
export async function deleteWebhook(db: Db, partnerId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhook.deleteMany({ where: { partnerId } });
    if (count === 0) return false;
    await tx.lowBalanceAlert.deleteMany({ where: { partnerId } });
    await dropPendingDeliveries(tx, partnerId);
    return true;
  });
}
