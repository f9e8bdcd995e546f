import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { SweepListQuery, SweepRequest } from "../requests";
import { Sweep, SweepList } from "../responses";
import { z } from "../zod";

registry.registerPath({
  method: "post",
  path: "/v1/sweeps",
  operationId: "createSweep",
  summary: "Create a sweep",
  description: "Outcome arrives as sweep.swept, sweep.failed or sweep.rejected and is visible in GET /v1/sweeps/{id}.",
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(SweepRequest) } },
  responses: {
    200: { description: "a sweep with this external_id exists; returned as it is now", ...jsonContent(Sweep) },
    202: { description: "queued", ...jsonContent(Sweep) },
    400: errorResponse("invalid_json"),
    409: errorResponse("hot_wallet_not_active (delegate still being deployed, or deployment failed)"),
    422: errorResponse(
      "unknown_chain, invalid_external_id, invalid_address, unknown_token, invalid_amount, unknown_hot_wallet (not registered on this chain), invalid_authorization; `message` says what is wrong",
    ),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/sweeps",
  operationId: "listSweeps",
  summary: "List sweeps",
  description: "Newest first; filters combine.",
  security: [{ bearer: [] }],
  request: { query: SweepListQuery },
  responses: {
    200: { description: "a page of sweeps", ...jsonContent(SweepList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/sweeps/{id}",
  operationId: "getSweep",
  summary: "Get a sweep",
  security: [{ bearer: [] }],
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    200: { description: "the sweep", ...jsonContent(Sweep) },
    404: errorResponse("not_found: no such sweep in the account"),
    ...authenticatedResponses,
  },
});
