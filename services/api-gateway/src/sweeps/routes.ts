import { presentSweep, SweepListQuery, SweepRequest } from "@sweep/api-contract";
import type { Router } from "express";
import { sweepCursors } from "../lists/cursor";
import { workRoutes, type WorkRoutesDeps } from "../work/work-routes";
import { createSweep, type SweepCreationDeps } from "./creation";
import { findSweep, listSweeps } from "./queries";

export function sweepRoutes(deps: SweepCreationDeps & WorkRoutesDeps): Router {
  return workRoutes(deps, {
    path: "/v1/sweeps",
    body: SweepRequest,
    valueCodes: { chain_id: "unknown_chain", external_id: "invalid_external_id", hot_wallet: "invalid_address", account: "invalid_address", token: "unknown_token", amount: "invalid_amount", authorization: "invalid_authorization" },
    create: (partnerId, body) => createSweep(deps, partnerId, body),
    logNote: (sweep) => ({ sweepId: sweep.id, externalId: sweep.externalId, chainId: sweep.chainId, hotWallet: sweep.hotWallet.address, account: sweep.account }),
    listQuery: SweepListQuery,
    cursors: sweepCursors,
    list: listSweeps,
    find: findSweep,
    present: presentSweep,
    notFound: "no such sweep in this account",
  });
}
