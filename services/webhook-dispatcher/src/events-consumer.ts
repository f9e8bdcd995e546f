import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { openDelivery, states } from "@sweep/lifecycle";
import { Consumer, type Messaging } from "@sweep/messaging";

/**
 * Consumes the events queue: each recorded event's delivery is pending from its transaction (or
 * opened here for a message recorded before that, if the partner has a webhook now), and while it
 * is, the delivery loop is nudged to send it without waiting for its poll.
 */
export function startEventsConsumer(messaging: Pick<Messaging, "connection" | "topology">, deps: { db: Db; now: () => Date; deliveryPending: () => void }, logger: Logger): Promise<Consumer> {
  return Consumer.start(messaging.connection, messaging.topology, {
    queue: messaging.topology.names.events(),
    logger,
    handlers: {
      "event.recorded": async ({ eventId }, context) => {
        const status = await openDelivery(deps.db, eventId, deps.now());
        context.logger.debug(status === null ? "no delivery (no webhook)" : `delivery ${status}`, { eventId });
        if (status === states.delivery.pending) deps.deliveryPending();
      },
    },
  });
}
