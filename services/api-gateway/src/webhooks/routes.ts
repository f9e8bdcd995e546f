import { presentWebhook, presentWebhookDelivery, WebhookDeliveryListQuery } from "@sweep/api-contract";
import { ApiError } from "../http/api-error";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { parseRequest } from "../http/validation";
import { webhookDeliveryCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";
import { limitPerPartner } from "../rate-limits/limit-requests";
import type { RequestLimit } from "../rate-limits/request-limit";
import { isUuid } from "../http/uuid";
import { listDeliveries, resendDelivery } from "./deliveries";
import { queueTestEvent } from "./test-event";
import { webhookBody, webhookBodyCodes } from "./webhook-body";
import { deleteWebhook, readWebhook, rotateWebhookSecret, setWebhook } from "./webhook-store";

export interface WebhookRoutesDeps {
  db: Db;
  names: QueueNames;
  chains: ReadonlyMap<number, unknown>;
  /** the outbox has rows to publish */
  onOutbox: () => void;
  /** WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP: local development's private hosts and plain http, each on its own */
  reach: { allowPrivate: boolean; allowHttp: boolean };
  /** POST /v1/webhook/test per partner: each test is an event delivered to the partner's receiver */
  testEventLimit: RequestLimit;
}

const noWebhook = () => new ApiError("not_found", "no webhook is set");

export function webhookRoutes(deps: WebhookRoutesDeps): Router {
  const router = Router();
  const body = webhookBody(deps.chains, deps.reach);

  router.get("/v1/webhook", async (_req, res) => {
    const settings = await readWebhook(deps.db, partnerOf(res).partnerId);
    if (!settings) throw noWebhook();
    res.json(presentWebhook(settings.webhook, settings.alerts));
  });

  router.put("/v1/webhook", async (req, res) => {
    const { url, low_balance } = parseRequest(body, req.body, webhookBodyCodes);
    const alerts = (low_balance ?? []).map((alert) => ({ chainId: alert.chain_id, threshold: BigInt(alert.threshold) }));
    const settings = await setWebhook(deps.db, partnerOf(res).partnerId, { url, alerts });
    res.json(presentWebhook(settings.webhook, settings.alerts));
  });

  router.post("/v1/webhook/rotate-secret", async (_req, res) => {
    const settings = await rotateWebhookSecret(deps.db, partnerOf(res).partnerId);
    if (!settings) throw noWebhook();
    requestLog(res).note({ rotatedUntil: settings.webhook.previousSecretUntil?.toISOString() });
    res.json(presentWebhook(settings.webhook, settings.alerts));
  });

  router.delete("/v1/webhook", async (_req, res) => {
    if (!(await deleteWebhook(deps.db, partnerOf(res).partnerId))) throw noWebhook();
    res.status(204).end();
  });

  router.get("/v1/webhook/deliveries", async (req, res) => {
    const page = await listDeliveries(deps.db, partnerOf(res).partnerId, parsePageRequest(WebhookDeliveryListQuery, req.query, webhookDeliveryCursors, deps.chains));
    res.json({ items: page.items.map(presentWebhookDelivery), next_cursor: page.nextCursor });
  });

  router.post("/v1/webhook/deliveries/:id/resend", async (req, res) => {
    const noDelivery = new ApiError("not_found", "no such delivery in the account");
    if (!isUuid(req.params.id)) throw noDelivery;
    const delivery = await resendDelivery(deps.db, deps.names, partnerOf(res).partnerId, req.params.id.toLowerCase());
    if (delivery === "no_webhook") throw noWebhook();
    if (!delivery) throw noDelivery;
    deps.onOutbox();
    requestLog(res).note({ eventId: delivery.eventId });
    res.status(202).json(presentWebhookDelivery(delivery));
  });

  router.post("/v1/webhook/test", limitPerPartner(deps.testEventLimit, "of POST /v1/webhook/test"), async (_req, res) => {
    const id = await queueTestEvent(deps.db, deps.names, partnerOf(res).partnerId);
    if (!id) throw noWebhook();
    deps.onOutbox();
    requestLog(res).note({ eventId: id });
    res.status(202).json({ id });
  });

  return router;
}
