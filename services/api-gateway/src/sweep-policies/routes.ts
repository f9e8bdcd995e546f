import { SweepPolicyRequest, presentSweepPolicy } from "@sweep/api-contract";
import { sweepPolicyViewSelect } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { parseRequest, type ValidationCodes } from "../http/validation";
import { setSweepPolicy, type SweepPolicyDeps } from "./policy-setting";

const bodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: {
    chain_id: "unknown_chain",
    token: "unknown_token",
    hot_wallet: "invalid_address",
    min_balance: "invalid_amount",
    max_fee_per_gas: "invalid_amount",
    max_cost_bps: "invalid_amount",
    token_value_wei: "invalid_amount",
  },
};

/** The partner's sweep policies: one per chain and token, set whole, listed. */
export function sweepPolicyRoutes(deps: SweepPolicyDeps): Router {
  const router = Router();

  router.put("/v1/sweep-policies", async (req, res) => {
    const body = parseRequest(SweepPolicyRequest, req.body, bodyCodes);
    const policy = await setSweepPolicy(deps, partnerOf(res).partnerId, body);
    requestLog(res).note({ chainId: policy.chainId, token: policy.token, enabled: policy.enabled });
    res.json(presentSweepPolicy(policy));
  });

  router.get("/v1/sweep-policies", async (_req, res) => {
    const policies = await deps.db.sweepPolicy.findMany({ where: { partnerId: partnerOf(res).partnerId }, orderBy: [{ chainId: "asc" }, { token: "asc" }], select: sweepPolicyViewSelect });
    res.json({ items: policies.map(presentSweepPolicy) });
  });

  return router;
}
