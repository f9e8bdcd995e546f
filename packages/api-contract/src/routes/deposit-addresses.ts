import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { DepositAddressListQuery, DepositAddressRegistration, DepositListQuery, MAX_DEPOSIT_ADDRESSES_PER_REQUEST } from "../requests";
import { DepositAddressList, DepositAddressRegistrationResult, DepositList } from "../responses";

registry.registerPath({
  method: "post",
  path: "/v1/deposit-addresses",
  operationId: "registerDepositAddresses",
  summary: "Register deposit addresses",
  description: `Adds up to ${MAX_DEPOSIT_ADDRESSES_PER_REQUEST} deposit addresses to the inventory ahead of any deposit, each with its authorization of the hot wallet's delegate, which the service holds as the address's latest. Idempotent: registering an address again keeps one entry and holds the newer authorization. All or nothing: one refused address refuses the request, and \`message\` names it (\`addresses.<index>\`) after the cause. The body may be up to 512 KiB. Every address of a sweep or revocation enters the inventory too.`,
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(DepositAddressRegistration) } },
  responses: {
    200: { description: "the addresses as now stored", ...jsonContent(DepositAddressRegistrationResult) },
    400: errorResponse(`invalid_json (also for no addresses or more than ${MAX_DEPOSIT_ADDRESSES_PER_REQUEST}, or a body over 512 KiB)`),
    422: errorResponse(
      "unknown_chain, invalid_address (also an address given twice), unknown_hot_wallet (not registered on this chain), invalid_authorization (its message starts as for a sweep's, then names the address)",
    ),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/deposit-addresses",
  operationId: "listDepositAddresses",
  summary: "List deposit addresses",
  description: "The inventory, newest first; filters combine.",
  security: [{ bearer: [] }],
  request: { query: DepositAddressListQuery },
  responses: {
    200: { description: "a page of deposit addresses", ...jsonContent(DepositAddressList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/deposits",
  operationId: "listDeposits",
  summary: "List deposits",
  description:
    "Transfers to the inventory's addresses that the service saw on chain, newest first; filters combine. A deposit is listed pending as soon as its block is read, and confirmed (with the deposit.detected event) at the chain's confirmations; a reorg that removes a pending deposit's block removes it. Native coin sent by a contract's internal call is not seen.",
  security: [{ bearer: [] }],
  request: { query: DepositListQuery },
  responses: {
    200: { description: "a page of deposits", ...jsonContent(DepositList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});
