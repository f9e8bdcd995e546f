import { presentRevocation, RevocationListQuery, RevocationRequest } from "@sweep/api-contract";
import { ApiError } from "@sweep/common";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { parseRequest, type ValidationCodes } from "../http/validation";
import { revocationCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";
import { createRevocation, type RevocationCreationDeps } from "./creation";
import { findRevocation, listRevocations } from "./queries";

/** The spec's 422 codes of a revocation request, in the order the spec lists them. */
const bodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: {
    chain_id: "unknown_chain",
    external_id: "invalid_external_id",
    account: "invalid_address",
    authorization: "invalid_authorization",
  },
};

export interface RevocationRoutesDeps extends RevocationCreationDeps {
  /** the outbox has rows to publish */
  onOutbox: () => void;
}

export function revocationRoutes(deps: RevocationRoutesDeps): Router {
  const router = Router();

  router.post("/v1/revocations", async (req, res) => {
    const body = parseRequest(RevocationRequest, req.body, bodyCodes);
    const { status, revocation } = await createRevocation(deps, partnerOf(res).partnerId, body);
    if (status === 202) deps.onOutbox();
    requestLog(res).note({ revocationId: revocation.id, externalId: revocation.externalId, chainId: revocation.chainId, account: revocation.account });
    res.status(status).json(presentRevocation(revocation));
  });

  router.get("/v1/revocations", async (req, res) => {
    const page = await listRevocations(deps.db, partnerOf(res).partnerId, parsePageRequest(RevocationListQuery, req.query, revocationCursors, deps.chains));
    res.json({ items: page.items.map(presentRevocation), next_cursor: page.nextCursor });
  });

  router.get("/v1/revocations/:id", async (req, res) => {
    const revocation = await findRevocation(deps.db, partnerOf(res).partnerId, req.params.id);
    if (!revocation) throw new ApiError("not_found", "no such revocation in this account");
    res.json(presentRevocation(revocation));
  });

  return router;
}
