import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { recordDeliveryAttempt, states } from "@sweep/lifecycle";
import { webhookAttempts } from "@sweep/metrics";
import type { AttemptResult } from "./attempt-errors";
import { attemptLabels } from "./attempt-labels";
import { resolveDestination, type LookupAll } from "./destination";
import { deliveryLogFields } from "./delivery-log";
import type { ClaimedDelivery } from "./delivery-store";
import { loadEventBody, type EventBody } from "@sweep/lifecycle";
import { afterFailedAttempt } from "./retry-schedule";
import { signatureHeader } from "./signature";
import { postWebhook, type PostResult } from "./webhook-post";

export interface AttemptDeps {
  db: Db;
  lookup: LookupAll;
  /** WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP (local development, each on its own) */
  reach: { allowPrivate: boolean; allowHttp: boolean };
  /** how long the endpoint has to answer, the lookup included */
  timeoutMs: number;
  retryBaseMs: number;
  userAgent: string;
  now: () => Date;
  logger: Logger;
}

/**
 * One attempt of a claimed delivery, outside any transaction: the webhook as it is now (none:
 * the delivery fails as removed), the body as its subject is now, signed for this attempt, sent
 * to a checked address; then the result, recorded only if the claim is still held.
 */
export async function attemptDelivery(deps: AttemptDeps, delivery: ClaimedDelivery): Promise<void> {
  const logger = deps.logger.child({ ...deliveryLogFields(delivery), attempt: delivery.attempts + 1 });
  const webhook = await deps.db.webhook.findUnique({ where: { partnerId: delivery.partnerId }, select: { url: true, secret: true, previousSecret: true, previousSecretUntil: true } });
  if (webhook === null) {
    await recordDeliveryAttempt(deps.db, delivery, { outcome: "webhook_removed" });
    logger.info("delivery failed: webhook removed");
    return;
  }
  const result = await send(deps, delivery, webhook, logger);
  const now = deps.now();
  const afterFailure = afterFailedAttempt(delivery.attempts + 1, now, deps.retryBaseMs);
  const recorded = await recordDeliveryAttempt(
    deps.db,
    delivery,
    result.outcome === "delivered" ? { ...result, at: now } : { ...result, next: afterFailure },
  );
  // Counted as recorded, so the counts agree with the deliveries' attempts.
  if (recorded) webhookAttempts.inc(attemptLabels(result, afterFailure.status === states.delivery.failed));
  // Not recorded: the webhook was deleted meanwhile, or the lease ran out and another attempt took over.
  logger.info(recorded ? "delivery attempt recorded" : "delivery attempt not recorded: claim no longer held", result);
}

async function send(deps: AttemptDeps, delivery: ClaimedDelivery, webhook: { url: string; secret: string; previousSecret: string | null; previousSecretUntil: Date | null }, logger: Logger): Promise<AttemptResult> {
  let event: EventBody;
  try {
    event = await loadEventBody(deps.db, delivery);
  } catch (err) {
    logger.error("event body could not be built", { error: String(err) });
    return { outcome: "failed", statusCode: null, error: "internal" };
  }
  const deadline = AbortSignal.timeout(deps.timeoutMs);
  const destination = await untilDeadline(resolveDestination(webhook.url, deps.lookup, deps.reach), deadline);
  if ("error" in destination) return { outcome: "failed", statusCode: null, error: destination.error };
  const body = JSON.stringify(event);
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": deps.userAgent,
    "Service-Event": event.type,
    "Service-Delivery": delivery.eventId,
    "Service-Signature": signatureHeader(signingSecrets(webhook, deps.now()), body, deps.now()),
  };
  return outcomeOf(await postWebhook(destination, headers, body, deadline));
}

function outcomeOf(result: PostResult): AttemptResult {
  if ("error" in result) return { outcome: "failed", statusCode: null, error: result.error };
  const { statusCode } = result;
  if (statusCode >= 200 && statusCode < 300) return { outcome: "delivered", statusCode };
  return { outcome: "failed", statusCode, error: `status ${statusCode}` };
}

/** A lookup that outlasts the attempt's limit is a timeout (getaddrinfo cannot be cancelled, only left behind). */
function untilDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T | { error: "timeout" }> {
  if (deadline.aborted) return Promise.resolve({ error: "timeout" });
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve({ error: "timeout" });
    deadline.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener("abort", onAbort));
  });
}

/** The webhook's secret, and the one before its last rotation while that one lasts (POST /v1/webhook/rotate-secret). */
function signingSecrets(webhook: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null }, now: Date): string[] {
  return webhook.previousSecret !== null && webhook.previousSecretUntil !== null && webhook.previousSecretUntil > now ? [webhook.secret, webhook.previousSecret] : [webhook.secret];
}
