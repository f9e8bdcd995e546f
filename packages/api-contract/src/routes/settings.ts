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
    400: errorResponse("invalid_json (also for an unknown field, or keep_one_unit that is not true or false)"),
    ...authenticatedResponses,
  },
});
