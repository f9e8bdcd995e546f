import { LedgerListQuery, presentLedgerEntry } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { ledgerCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";
import { listLedgerEntries } from "./queries";

export interface LedgerRoutesDeps {
  db: Db;
  chains: ReadonlyMap<number, unknown>;
}

export function ledgerRoutes(deps: LedgerRoutesDeps): Router {
  const router = Router();

  router.get("/v1/ledger", async (req, res) => {
    const page = await listLedgerEntries(deps.db, partnerOf(res).partnerId, parsePageRequest(LedgerListQuery, req.query, ledgerCursors, deps.chains));
    res.json({ items: page.items.map(presentLedgerEntry), next_cursor: page.nextCursor });
  });

  return router;
}
