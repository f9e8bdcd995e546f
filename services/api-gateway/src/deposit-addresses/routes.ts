import { DepositAddressListQuery, DepositAddressRegistration, presentDepositAddress } from "@sweep/api-contract";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { requestLog } from "../http/request-log";
import { parseRequest, type ValidationCodes } from "../http/validation";
import { depositAddressCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";
import { withRecentDeposits } from "../deposits/queries";
import { listDepositAddresses } from "./queries";
import { registerDepositAddresses, type DepositAddressRegistrationDeps } from "./registration";

/** Each address's fields by their path without the index (validation.ts), in the spec's order of codes. */
const bodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: { chain_id: "unknown_chain", hot_wallet: "invalid_address", "addresses.address": "invalid_address", "addresses.authorization": "invalid_authorization" },
};

/** The partner's deposit-address inventory: bulk registration and the list. */
export function depositAddressRoutes(deps: DepositAddressRegistrationDeps): Router {
  const router = Router();

  router.post("/v1/deposit-addresses", async (req, res) => {
    const body = parseRequest(DepositAddressRegistration, req.body, bodyCodes);
    const { partnerId } = partnerOf(res);
    const stored = await registerDepositAddresses(deps, partnerId, body);
    requestLog(res).note({ chainId: body.chain_id, hotWallet: body.hot_wallet, addresses: stored.length });
    res.json({ items: (await withRecentDeposits(deps.db, partnerId, stored)).map(presentDepositAddress) });
  });

  router.get("/v1/deposit-addresses", async (req, res) => {
    const { partnerId } = partnerOf(res);
    const page = await listDepositAddresses(deps.db, partnerId, parsePageRequest(DepositAddressListQuery, req.query, depositAddressCursors, deps.chains));
    res.json({ items: (await withRecentDeposits(deps.db, partnerId, page.items)).map(presentDepositAddress), next_cursor: page.nextCursor });
  });

  return router;
}
