import { LedgerListQuery, LedgerSummaryQuery, presentLedgerEntry } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { ledgerCursors } from "../lists/cursor";
import { parsePageRequest, parseQuery } from "../lists/page";
import { listLedgerEntries } from "./queries";
import { summarizeLedger } from "./summary";

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

  router.get("/v1/ledger/summary", async (req, res) => {
    const query = parseQuery(LedgerSummaryQuery, req.query, deps.chains);
    res.json(await summarizeLedger(deps.db, partnerOf(res).partnerId, [...deps.chains.keys()], query));
  });

  return router;
}
