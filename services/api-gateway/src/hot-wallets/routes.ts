import { HotWalletRequest, presentHotWallet } from "@sweep/api-contract";
import { ApiError } from "../http/api-error";
import type { Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { checksumAddress, servedChain, type GatewayChain } from "../chains";
import { requestLog } from "../http/request-log";
import { parseRequest, type ValidationCodes } from "../http/validation";
import { HotWalletLimitReached, registerHotWallet } from "./registration";

const bodyCodes: ValidationCodes = { shapeCode: "invalid_json", noun: "field", valueCodes: { chain_id: "unknown_chain", address: "invalid_address" } };

/** The documented default of HOT_WALLETS_MAX_PER_CHAIN. */
export const DEFAULT_MAX_HOT_WALLETS_PER_CHAIN = 100;

export interface HotWalletRoutesDeps {
  db: Db;
  names: QueueNames;
  chains: ReadonlyMap<number, GatewayChain>;
  /** the outbox has rows to publish */
  onOutbox: () => void;
  /** hot wallets a partner may register on one chain (which also bounds GET /v1/hot-wallets) */
  maxPerChain: number;
}

export function hotWalletRoutes(deps: HotWalletRoutesDeps): Router {
  const router = Router();

  router.get("/v1/hot-wallets", async (_req, res) => {
    const rows = await deps.db.hotWallet.findMany({ where: { partnerId: partnerOf(res).partnerId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    res.json({ hot_wallets: rows.map(presentHotWallet) });
  });

  router.post("/v1/hot-wallets", async (req, res) => {
    const body = parseRequest(HotWalletRequest, req.body, bodyCodes);
    const chain = servedChain(deps.chains, body.chain_id);
    const partner = partnerOf(res);
    if (!partner.gasWallet) throw new Error(`partner ${partner.partnerId} has no gas wallet`);
    const registration = await registerHotWallet(deps.db, deps.names, { partnerId: partner.partnerId, gasWallet: partner.gasWallet, chain, address: checksumAddress(body.address), maxPerChain: deps.maxPerChain }).catch((err: unknown) => {
      if (err instanceof HotWalletLimitReached)
        throw new ApiError("too_many_hot_wallets", `the account has ${err.max} hot wallets on chain ${chain.chainId}, the most it may register there; a registered one can be registered again`);
      throw err;
    });
    if (registration.status === 202) deps.onOutbox();
    const { hotWallet } = registration;
    requestLog(res).note({ hotWalletId: hotWallet.id, chainId: hotWallet.chainId, hotWallet: hotWallet.address, delegate: hotWallet.delegate });
    res.status(registration.status).json(presentHotWallet(registration.hotWallet));
  });

  return router;
}
