import { BalanceLowEvent, DelegationChangedEvent, DepositAddressActivityEvent, DepositEvent, Event, EventList, eventTypesByData, HotWalletEvent, RevocationEvent, SweepEvent, WebhookTestEvent } from "../events";
import { authenticatedResponses, errorResponse, jsonContent, registry, webhookRegistry } from "../registry";
import { EVENT_RETENTION_DAYS, EventListQuery } from "../requests";
import { z } from "../zod";

const deliveryHeaders = z.object({
  "Service-Signature": z.string().openapi({
    description: "`t=<unix seconds>,v1=<signature>`: the time of this attempt and the hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook secret; accept t within 5 minutes",
    example: "t=1764072000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
  }),
  "Service-Event": z.string().openapi({ description: "the event type, as `type` in the body" }),
  "Service-Delivery": z.uuid().openapi({ description: "the event's id, as in the body; the same in every attempt" }),
});

const bodies = {
  Sweep: SweepEvent,
  Revocation: RevocationEvent,
  HotWallet: HotWalletEvent,
  BalanceLow: BalanceLowEvent,
  WebhookTest: WebhookTestEvent,
  DelegationChanged: DelegationChangedEvent,
  DepositAddressActivity: DepositAddressActivityEvent,
  Deposit: DepositEvent,
} satisfies Record<keyof typeof eventTypesByData, unknown>;

// The bodies are components of the document, and so is their union, for a receiver that takes every event at one URL.
const components = { SweepEvent, RevocationEvent, HotWalletEvent, BalanceLowEvent, WebhookTestEvent, DelegationChangedEvent, DepositAddressActivityEvent, DepositEvent, Event };
for (const [name, schema] of Object.entries(components)) registry.register(name, schema);

for (const data of Object.keys(eventTypesByData) as Array<keyof typeof eventTypesByData>) {
  for (const type of eventTypesByData[data]) {
    webhookRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: type.replace(/[._](\w)/g, (_m, letter: string) => letter.toUpperCase()),
      summary: `${type}: ${data} in data`,
      description: "Signed, delivered at least once (handle each event id once), in no guaranteed order.",
      // Signed by the webhook secret; no API key is sent.
      security: [],
      request: { headers: deliveryHeaders, body: { required: true, ...jsonContent(bodies[data]) } },
      responses: { 200: { description: "any 2xx within 10 seconds; the body is ignored, anything else is retried" } },
    });
  }
}

registry.registerPath({
  method: "get",
  path: "/v1/events",
  operationId: "listEvents",
  summary: "List events",
  description: `Every event of the account of the last ${EVENT_RETENTION_DAYS} days, newest first, each as a webhook delivers it now (a sweep, revocation, hot wallet or deposit as it is at this request), whether or not a webhook was set when it happened. Fetching an event sends nothing: deliveries are the webhook's (GET /v1/webhook/deliveries, resend).`,
  security: [{ bearer: [] }],
  request: { query: EventListQuery },
  responses: {
    200: { description: "a page of events", ...jsonContent(EventList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});
