import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { RevocationListQuery, RevocationRequest } from "../requests";
import { Revocation, RevocationList } from "../responses";
import { z } from "../zod";

registry.registerPath({
  method: "post",
  path: "/v1/revocations",
  operationId: "createRevocation",
  summary: "Create a revocation",
  description:
    "The deposit address signs an authorization of the zero address; the gas wallet sends it in a transaction to itself, with no fee. It waits for the sweeps of the same deposit address requested before it. Outcome arrives as revocation.revoked, revocation.failed or revocation.rejected and is visible in GET /v1/revocations/{id}.",
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(RevocationRequest) } },
  responses: {
    200: { description: "a revocation with this external_id exists; returned as it is now", ...jsonContent(Revocation) },
    202: { description: "queued", ...jsonContent(Revocation) },
    400: errorResponse("invalid_json"),
    422: errorResponse("unknown_chain, invalid_external_id, invalid_address, invalid_authorization (also when it is missing); `message` says what is wrong"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/revocations",
  operationId: "listRevocations",
  summary: "List revocations",
  description: "Newest first; filters combine.",
  security: [{ bearer: [] }],
  request: { query: RevocationListQuery },
  responses: {
    200: { description: "a page of revocations", ...jsonContent(RevocationList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/revocations/{id}",
  operationId: "getRevocation",
  summary: "Get a revocation",
  security: [{ bearer: [] }],
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    200: { description: "the revocation", ...jsonContent(Revocation) },
    404: errorResponse("not_found: no such revocation in the account"),
    ...authenticatedResponses,
  },
});
