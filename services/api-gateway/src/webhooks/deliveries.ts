import type { WebhookDeliveryListQuery, WebhookDeliveryRow } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
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
