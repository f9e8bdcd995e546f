import { UsageQuery } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { parseQuery } from "../lists/page";
import { usageDays } from "./queries";
import { DEFAULT_USAGE_DAYS, usageWindow } from "./usage-window";

export interface UsageRoutesDeps {
  db: Db;
  /** the environment's chains, in the order each day lists them */
  chains: ReadonlyMap<number, unknown>;
}

export function usageRoutes(deps: UsageRoutesDeps): Router {
  const router = Router();

  router.get("/v1/usage", async (req, res) => {
    const query = parseQuery(UsageQuery, req.query, deps.chains);
    const chainIds = query.chain_id === undefined ? [...deps.chains.keys()] : [query.chain_id];
    const days = await usageDays(deps.db, partnerOf(res).partnerId, { ...usageWindow(query.days ?? DEFAULT_USAGE_DAYS, new Date()), chainIds });
    res.json({ days });
  });

  return router;
}
