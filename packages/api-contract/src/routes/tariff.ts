import { authenticatedResponses, jsonContent, registry } from "../registry";
import { Tariff } from "../responses";

registry.registerPath({
  method: "get",
  path: "/v1/tariff",
  operationId: "getTariff",
  summary: "Rates and gas benchmarks per chain",
  description: "The account's tariff on every chain of the environment: the configured rates, or those of the account's agreement where it sets them.",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the tariff per chain", ...jsonContent(Tariff) }, ...authenticatedResponses },
});
