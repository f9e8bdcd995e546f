import { registry } from "../registry";

registry.registerPath({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  summary: "Health check (no key)",
  // An empty list overrides the document's bearer requirement: this operation is public.
  security: [],
  responses: { 204: { description: "the service is up" } },
});

registry.registerPath({
  method: "get",
  path: "/v1/openapi.yaml",
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 document, as the running service knows it (no key)",
  security: [],
  responses: { 200: { description: "the document", content: { "application/yaml": { schema: { type: "string" } } } } },
});
