import { presentRevocation, RevocationListQuery, RevocationRequest } from "@sweep/api-contract";
import type { Router } from "express";
import { revocationCursors } from "../lists/cursor";
import { workRoutes, type WorkRoutesDeps } from "../work/work-routes";
import { createRevocation, type RevocationCreationDeps } from "./creation";
import { findRevocation, listRevocations } from "./queries";

export function revocationRoutes(deps: RevocationCreationDeps & WorkRoutesDeps): Router {
  return workRoutes(deps, {
    path: "/v1/revocations",
    body: RevocationRequest,
    valueCodes: { chain_id: "unknown_chain", external_id: "invalid_external_id", account: "invalid_address", authorization: "invalid_authorization" },
    create: (partnerId, body) => createRevocation(deps, partnerId, body),
    logNote: (revocation) => ({ revocationId: revocation.id, externalId: revocation.externalId, chainId: revocation.chainId, account: revocation.account }),
    listQuery: RevocationListQuery,
    cursors: revocationCursors,
    list: listRevocations,
    find: findRevocation,
    present: presentRevocation,
    notFound: "no such revocation in this account",
  });
}
