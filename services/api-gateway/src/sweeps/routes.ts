import { presentSweep, SweepListQuery, SweepRequest } from "@sweep/api-contract";
import { ApiError } from "@sweep/common";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { parseRequest, type ValidationCodes } from "../http/validation";
import { sweepCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";
import { createSweep, type SweepCreationDeps } from "./creation";
import { findSweep, listSweeps } from "./queries";

/** The spec's 422 codes of a sweep request, in the order the spec lists them. */
const bodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: {
    chain_id: "unknown_chain",
    external_id: "invalid_external_id",
    hot_wallet: "invalid_address",
    account: "invalid_address",
    token: "unknown_token",
    amount: "invalid_amount",
    authorization: "invalid_authorization",
  },
};

export interface SweepRoutesDeps extends SweepCreationDeps {
  /** the outbox has rows to publish */
  onOutbox: () => void;
}

export function sweepRoutes(deps: SweepRoutesDeps): Router {
  const router = Router();

  router.post("/v1/sweeps", async (req, res) => {
    const body = parseRequest(SweepRequest, req.body, bodyCodes);
    const { status, sweep } = await createSweep(deps, partnerOf(res).partnerId, body);
    if (status === 202) deps.onOutbox();
    requestLog(res).note({ sweepId: sweep.id, externalId: sweep.externalId, chainId: sweep.chainId, hotWallet: sweep.hotWallet.address, account: sweep.account });
    res.status(status).json(presentSweep(sweep));
  });

  router.get("/v1/sweeps", async (req, res) => {
    const page = await listSweeps(deps.db, partnerOf(res).partnerId, parsePageRequest(SweepListQuery, req.query, sweepCursors, deps.chains));
    res.json({ items: page.items.map(presentSweep), next_cursor: page.nextCursor });
  });

  router.get("/v1/sweeps/:id", async (req, res) => {
    const sweep = await findSweep(deps.db, partnerOf(res).partnerId, req.params.id);
    if (!sweep) throw new ApiError("not_found", "no such sweep in this account");
    res.json(presentSweep(sweep));
  });

  return router;
}
