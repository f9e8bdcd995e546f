import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { UsageQuery } from "../requests";
import { Usage } from "../responses";

registry.registerPath({
  method: "get",
  path: "/v1/usage",
  operationId: "getUsage",
  summary: "Daily usage",
  description:
    "Each of the last `days` UTC days, today included, oldest first, on every chain of the environment (or only chain_id), with zeros for days without activity. Sweeps and revocations count on the day they were created, by how they ended; gas counts on the day of its transaction; fees on the day they accrued.",
  security: [{ bearer: [] }],
  request: { query: UsageQuery },
  responses: {
    200: { description: "one row per day and chain", ...jsonContent(Usage) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});
