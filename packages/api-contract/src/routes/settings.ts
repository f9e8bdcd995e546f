import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { SettingsPatch } from "../requests";
import { Settings } from "../responses";

registry.registerPath({
  method: "get",
  path: "/v1/settings",
  operationId: "getSettings",
  summary: "Read settings",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the settings", ...jsonContent(Settings) }, ...authenticatedResponses },
});

registry.registerPath({
  method: "patch",
  path: "/v1/settings",
  operationId: "updateSettings",
  summary: "Change settings",
  description: "Changes only the fields sent and keeps the others; an empty object changes nothing.",
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(SettingsPatch) } },
  responses: {
    200: { description: "the settings after the change", ...jsonContent(Settings) },
    400: errorResponse("invalid_json (also for an unknown field, keep_one_unit that is not true or false, or fee_ceilings that is not a list of objects)"),
    422: errorResponse("unknown_chain (a fee ceiling's chain_id is not a chain of this environment, or is listed twice); invalid_amount (a max_fee_per_gas that is not a positive integer in wei)"),
    ...authenticatedResponses,
  },
});
