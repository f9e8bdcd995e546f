import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { SweepPolicyRequest } from "../requests";
import { SweepPolicy, SweepPolicyList } from "../responses";

registry.registerPath({
  method: "put",
  path: "/v1/sweep-policies",
  operationId: "setSweepPolicy",
  summary: "Set a sweep policy",
  description:
    "Sets the policy of one token (or the native coin) on one chain, replacing the one set before: the service then sweeps, by itself, every deposit address of the inventory whose confirmed deposits of that token bring its balance to `min_balance`, the whole balance to `hot_wallet`, within the schedule's windows. Its sweeps are ordinary sweeps (`created_by: policy`, `external_id` from the deposit): the same batches, ledger and webhooks. A sweep that would break the gas price or cost rule waits queued and says why.",
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(SweepPolicyRequest) } },
  responses: {
    200: { description: "the policy as now set", ...jsonContent(SweepPolicy) },
    400: errorResponse("invalid_json (also an unknown field, a schedule not asap, hourly or daily, or `at` not HH:MM or :MM)"),
    422: errorResponse(
      "unknown_chain, unknown_token (not listed on the chain), invalid_address or unknown_hot_wallet (not registered on this chain), invalid_amount (min_balance, max_fee_per_gas or token_value_wei not a whole number; max_cost_bps on a token without token_value_wei)",
    ),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/sweep-policies",
  operationId: "listSweepPolicies",
  summary: "List sweep policies",
  description: "Every policy of the account, by chain and token.",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the policies", ...jsonContent(SweepPolicyList) }, ...authenticatedResponses },
});
