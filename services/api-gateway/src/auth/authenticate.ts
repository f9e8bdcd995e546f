import { ApiError, hashApiKey, type Environment } from "@sweep/common";
import type { RequestHandler, Response } from "express";
import type { ApiKeyLookup } from "./api-key-lookup";
import { bearerKey, keyClaimsEnvironment, keyVerdict, type AuthenticatedPartner } from "./api-key-verdict";

/** Every /v1 request but the OpenAPI document: 401 unauthorized or 403 partner_disabled, else the partner in res.locals. */
export function authenticate(lookup: ApiKeyLookup, environment: Environment): RequestHandler {
  return async (req, res, next) => {
    const key = bearerKey(req.get("authorization"));
    if (!key) throw new ApiError("unauthorized", "send the API key as Authorization: Bearer <key>");
    if (!keyClaimsEnvironment(key, environment)) throw new ApiError("unauthorized", `the API key is not a key of the ${environment} API`);
    const verdict = keyVerdict(await lookup.find(hashApiKey(key)), environment);
    if (!verdict.ok) throw new ApiError(verdict.code, verdict.message);
    res.locals.partner = verdict.partner;
    next();
  };
}

/** The partner `authenticate` found for this request. */
export function partnerOf(res: Response): AuthenticatedPartner {
  return res.locals.partner as AuthenticatedPartner;
}

/** The partner's id once `authenticate` let the request through, for the lines logged about it. */
export function partnerIdOf(res: Response): string | undefined {
  return (res.locals.partner as AuthenticatedPartner | undefined)?.partnerId;
}
