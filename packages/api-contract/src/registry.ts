import { OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { ErrorBody } from "./scalars";

/** Every endpoint registers itself here; the document is generated from it, never written by hand. */
export const registry = new OpenAPIRegistry();

registry.registerComponent("securitySchemes", "bearer", {
  type: "http",
  scheme: "bearer",
  description: "API key: svc_test_… on the testnet API, svc_live_… on mainnet",
});

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ErrorBody } } });

/** The responses every authenticated endpoint can give, so each route need not repeat them. */
export const authenticatedResponses = {
  401: errorResponse("unauthorized: no API key, unknown, revoked, or of the other environment"),
  403: errorResponse("partner_disabled: the account is disabled"),
  500: errorResponse("internal: retry later with the same external_id"),
} satisfies RouteConfig["responses"];

export { errorResponse };
