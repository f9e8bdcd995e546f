import { authenticatedResponses, jsonContent, registry } from "../registry";
import { Balance } from "../responses";

registry.registerPath({
  method: "get",
  path: "/v1/balance",
  operationId: "getBalance",
  summary: "Gas wallet balance and fees per chain",
  description:
    "Per chain of the environment: the gas wallet's balance read from the chain's node, the fees accrued, withdrawn and due (kept in reserve, not spent on gas), and what is available for gas. A chain whose node does not answer shows `error` chain_unavailable without balance and available; the other chains still answer.",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the balance", ...jsonContent(Balance) }, ...authenticatedResponses },
});
