import { presentChainTariff } from "@sweep/api-contract";
import { partnerTariff } from "@sweep/fees";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import type { GatewayChain } from "../chains";

export interface TariffRoutesDeps {
  db: Db;
  chains: ReadonlyMap<number, GatewayChain>;
}

export function tariffRoutes(deps: TariffRoutesDeps): Router {
  const router = Router();

  // The rule the ledger computes fees with: the configured tariff, with the rates the partner's agreement sets.
  router.get("/v1/tariff", async (_req, res) => {
    const agreements = await deps.db.agreement.findMany({ where: { partnerId: partnerOf(res).partnerId }, select: { chainId: true, rateBps: true, nativeMarkupBps: true } });
    const agreementOf = (chainId: number) => agreements.find((a) => a.chainId === chainId) ?? null;
    const chains = [...deps.chains.values()].map((chain) => presentChainTariff(chain, partnerTariff(chain.tariff, agreementOf(chain.chainId))));
    res.json({ chains });
  });

  return router;
}
