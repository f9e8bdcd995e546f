import type { Db } from "@sweep/db";
import { recordEvent } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";

export const TEST_EVENT_MESSAGE = "a test event from the sweep service";

/**
 * POST /v1/webhook/test: a webhook.test event recorded like any other (with its outbox message),
 * so it is delivered and logged like any other. Null when no webhook is set.
 */
export async function queueTestEvent(db: Db, names: QueueNames, partnerId: string): Promise<string | null> {
  return db.$transaction(async (tx) => {
    if (!(await tx.webhook.findUnique({ where: { partnerId }, select: { partnerId: true } }))) return null;
    // No dedupe key: every test request is an event of its own.
    return recordEvent(tx, names, { partnerId, type: "webhook.test", payload: { message: TEST_EVENT_MESSAGE }, dedupeKey: null });
  });
}
