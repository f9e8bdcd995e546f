import { OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { Address, Amount, ChainId, ErrorBody, Gas, LedgerKind, NextCursor, SignedAmount } from "./scalars";

/** Every endpoint registers itself here; the document is generated from it, never written by hand. */
export const registry = new OpenAPIRegistry();

/** The webhooks (what the service POSTs to partners), generated apart from the endpoints: see document.ts. */
export const webhookRegistry = new OpenAPIRegistry();

// The scalars first: a field that adds its own description to one must not become the component.
for (const [name, schema] of Object.entries({ Address, Amount, SignedAmount, ChainID: ChainId, Gas, NextCursor, LedgerKind })) registry.register(name, schema);

registry.registerComponent("securitySchemes", "bearer", {
  type: "http",
  scheme: "bearer",
  description: "API key: svc_test_… on the testnet API, svc_live_… on mainnet",
});

/** A JSON body of this schema, for requests and responses. */
export const jsonContent = <S>(schema: S) => ({ content: { "application/json": { schema } } });

const errorResponse = (description: string) => ({ description, ...jsonContent(ErrorBody) });

/** The responses every authenticated endpoint can give, so each route need not repeat them. */
export const authenticatedResponses = {
  401: errorResponse("unauthorized: no API key, unknown, revoked, or of the other environment"),
  403: errorResponse("partner_disabled: the account is disabled"),
  429: {
    ...errorResponse("rate_limited: too many requests from this key, or from this client address; wait Retry-After seconds"),
    headers: { "Retry-After": { description: "seconds to wait before the next request", schema: { type: "integer", minimum: 1 } } },
  },
  500: errorResponse("internal: retry later with the same external_id"),
} satisfies RouteConfig["responses"];

export { errorResponse };
