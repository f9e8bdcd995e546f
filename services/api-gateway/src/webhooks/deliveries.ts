import type { WebhookDeliveryListQuery, WebhookDeliveryRow } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { reopenDelivery } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { webhookDeliveryCursors } from "../lists/cursor";
import { pageOf, type Page, type PageRequest } from "../lists/page";

const deliverySelect = {
  eventId: true,
  seq: true,
  status: true,
  attempts: true,
  lastStatusCode: true,
  lastError: true,
  nextAttemptAt: true,
  deliveredAt: true,
  event: { select: { type: true, createdAt: true } },
} as const;

/** GET /v1/webhook/deliveries: newest first by seq, below the cursor's seq. */
export async function listDeliveries(db: Db, partnerId: string, { below, limit }: PageRequest<WebhookDeliveryListQuery>): Promise<Page<WebhookDeliveryRow & { seq: bigint }>> {
  const rows = await db.webhookDelivery.findMany({
    where: { partnerId, ...(below !== null && { seq: { lt: below } }) },
    orderBy: { seq: "desc" },
    take: limit + 1,
    select: deliverySelect,
  });
  return pageOf(rows, limit, webhookDeliveryCursors);
}

/**
 * POST /v1/webhook/deliveries/{id}/resend: the event's delivery starts over (reopenDelivery in
 * @sweep/lifecycle; a pending one is left as it is). "no_webhook" when none is set, null when the
 * partner has no delivery of that id.
 */
export async function resendDelivery(db: Db, names: QueueNames, partnerId: string, eventId: string): Promise<WebhookDeliveryRow | "no_webhook" | null> {
  return db.$transaction(async (tx) => {
    if (!(await tx.webhook.findUnique({ where: { partnerId }, select: { partnerId: true } }))) return "no_webhook";
    await reopenDelivery(tx, names, { eventId, partnerId });
    return tx.webhookDelivery.findFirst({ where: { eventId, partnerId }, select: deliverySelect });
  });
}
