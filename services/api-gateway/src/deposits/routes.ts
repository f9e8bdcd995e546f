import { DepositListQuery, presentDeposit } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { depositCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";
import { listDeposits } from "./queries";

/** The deposits the batcher's block runs saw on the inventory's addresses. */
export function depositRoutes(deps: { db: Db; chains: ReadonlyMap<number, unknown> }): Router {
  const router = Router();
  router.get("/v1/deposits", async (req, res) => {
    const page = await listDeposits(deps.db, partnerOf(res).partnerId, parsePageRequest(DepositListQuery, req.query, depositCursors, deps.chains));
    res.json({ items: page.items.map(presentDeposit), next_cursor: page.nextCursor });
  });
  return router;
}
