import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { LedgerListQuery } from "../requests";
import { LedgerList } from "../responses";

registry.registerPath({
  method: "get",
  path: "/v1/ledger",
  operationId: "listLedgerEntries",
  summary: "Gas wallet movements",
  description:
    "Newest first; filters combine. A withdrawal is not a new expense: it is the fee reserve leaving the wallet together with the withdrawal's gas.",
  security: [{ bearer: [] }],
  request: { query: LedgerListQuery },
  responses: {
    200: { description: "a page of ledger entries", ...jsonContent(LedgerList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});
