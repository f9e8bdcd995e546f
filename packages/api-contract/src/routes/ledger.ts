import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { LedgerListQuery, LedgerSummaryQuery } from "../requests";
import { LedgerList, LedgerSummary } from "../responses";

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

registry.registerPath({
  method: "get",
  path: "/v1/ledger/summary",
  operationId: "summarizeLedger",
  summary: "A period's ledger per chain: opening and closing balance, totals by kind",
  description:
    "For closing a period: the gas wallet's balance by the ledger before `created_after` and at `created_before` (or now), and the period's entries summed by kind. closing_balance = opening_balance + gas + withdrawal + topup; fees, charges and credits are what the account owes, paid by withdrawals.",
  security: [{ bearer: [] }],
  request: { query: LedgerSummaryQuery },
  responses: {
    200: { description: "the period's figures per chain", ...jsonContent(LedgerSummary) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});
