import type { ClaimedDelivery } from "./delivery-store";

/**
 * What every line about a delivery carries: the event, its partner, and the sweep, revocation or
 * hot wallet it is about under the field name every service logs that id with, so that grepping a
 * sweep's id across the services ends at the delivery of its outcome.
 */
export function deliveryLogFields(delivery: Pick<ClaimedDelivery, "eventId" | "eventType" | "partnerId" | "subjectId">): Record<string, string> {
  const fields = { eventId: delivery.eventId, eventType: delivery.eventType, partnerId: delivery.partnerId };
  const subject = delivery.subjectId;
  if (subject === null) return fields;
  if (delivery.eventType.startsWith("sweep.")) return { ...fields, sweepId: subject };
  if (delivery.eventType.startsWith("revocation.")) return { ...fields, revocationId: subject };
  if (delivery.eventType.startsWith("hot_wallet.")) return { ...fields, hotWalletId: subject };
  return { ...fields, subjectId: subject };
}
