import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { Consumer, type Messaging } from "@sweep/messaging";
import { openDelivery } from "./delivery-store";

/**
 * Consumes the events queue: each recorded event gets its delivery if the partner has a webhook
 * now, and the delivery loop is nudged to send it without waiting for its poll.
 */
export function startEventsConsumer(messaging: Pick<Messaging, "connection" | "topology">, deps: { db: Db; now: () => Date; opened: () => void }, logger: Logger): Promise<Consumer> {
  return Consumer.start(messaging.connection, messaging.topology, {
    queue: messaging.topology.names.events(),
    logger,
    handlers: {
      "event.recorded": async ({ eventId }, context) => {
        const opened = await openDelivery(deps.db, eventId, deps.now());
        context.logger.debug(opened ? "delivery opened" : "no delivery opened (no webhook, or opened before)", { eventId });
        if (opened) deps.opened();
      },
    },
  });
}
