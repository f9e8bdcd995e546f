import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { WebhookDeliveryListQuery, WebhookRequest } from "../requests";
import { Webhook, WebhookDelivery, WebhookDeliveryList, WebhookTestAccepted } from "../responses";
import { z } from "../zod";

const noWebhook = errorResponse("not_found: no webhook is set");

registry.registerPath({
  method: "get",
  path: "/v1/webhook",
  operationId: "getWebhook",
  summary: "Get webhook settings",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the webhook", ...jsonContent(Webhook) }, 404: noWebhook, ...authenticatedResponses },
});

registry.registerPath({
  method: "put",
  path: "/v1/webhook",
  operationId: "setWebhook",
  summary: "Set the webhook",
  description:
    "Sets the URL and replaces all low balance alerts (a request without `low_balance` removes them). The secret is created with the webhook and kept when the URL changes; after DELETE a new webhook gets a new one. An alert sent again with the same threshold keeps its `low`; a new or changed one starts with `low` false.",
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(WebhookRequest) } },
  responses: {
    200: { description: "the webhook is set", ...jsonContent(Webhook) },
    400: errorResponse("invalid_json (also for an unknown field)"),
    422: errorResponse("invalid_url (not a public https URL of up to 2048 characters); unknown_chain (a chain not of this environment, or listed twice); invalid_amount (threshold not an integer above zero)"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "delete",
  path: "/v1/webhook",
  operationId: "deleteWebhook",
  summary: "Delete the webhook",
  description: "Removes the webhook and its low balance alerts. Undelivered events are dropped and show as failed (last_error `webhook removed`) in the delivery log.",
  security: [{ bearer: [] }],
  responses: { 204: { description: "deleted" }, 404: noWebhook, ...authenticatedResponses },
});

registry.registerPath({
  method: "get",
  path: "/v1/webhook/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "Delivery log",
  description: "Newest first.",
  security: [{ bearer: [] }],
  request: { query: WebhookDeliveryListQuery },
  responses: {
    200: { description: "a page of deliveries", ...jsonContent(WebhookDeliveryList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "post",
  path: "/v1/webhook/test",
  operationId: "sendTestEvent",
  summary: "Queue a test event",
  description: "No body. Queues a webhook.test event, signed and delivered like any other and shown in the delivery log.",
  security: [{ bearer: [] }],
  responses: { 202: { description: "queued; the event's id", ...jsonContent(WebhookTestAccepted) }, 404: noWebhook, ...authenticatedResponses },
});

registry.registerPath({
  method: "post",
  path: "/v1/webhook/deliveries/{id}/resend",
  operationId: "resendDelivery",
  summary: "Resend a delivery",
  description:
    "No body. Delivers the event again: its delivery starts over (pending, attempts from 0, the last outcome cleared, signed anew at each attempt) and moves to the top of the delivery log; the event's id, type and data are the same, so a receiver that handled it ignores it. A delivery still pending is answered as it is.",
  security: [{ bearer: [] }],
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    202: { description: "the delivery, pending again", ...jsonContent(WebhookDelivery) },
    404: errorResponse("not_found: no such delivery in the account, or no webhook is set"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "post",
  path: "/v1/webhook/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate the webhook's signing secret",
  description:
    "Replaces the signing secret and answers the webhook with the new one. For the next 24 hours (`previous_secret_until`) every delivery carries two `v1` signatures, one with each secret, so a receiver that accepts either (the SDK's verifyWebhook does) switches without dropping an event. A second rotation within them keeps only the secret it replaces.",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the webhook with its new secret", ...jsonContent(Webhook) }, 404: errorResponse("not_found: no webhook is set"), ...authenticatedResponses },
});
