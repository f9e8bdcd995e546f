import { ApiError, hashApiKey, isWellFormedApiKey, type Environment } from "@sweep/common";
import type { RequestHandler, Response } from "express";
import type { ApiKeyLookup } from "./api-key-lookup";
import { LookupGateFull } from "./lookup-gate";
import { bearerKey, keyClaimsEnvironment, keyVerdict, type AuthenticatedPartner } from "./api-key-verdict";

/** Every /v1 request but the OpenAPI document: 401 unauthorized or 403 partner_disabled, else the partner in res.locals. */
export function authenticate(lookup: ApiKeyLookup, environment: Environment): RequestHandler {
  return async (req, res, next) => {
    const key = bearerKey(req.get("authorization"));
    if (!key) throw new ApiError("unauthorized", "send the API key as Authorization: Bearer <key>");
    if (!keyClaimsEnvironment(key, environment)) throw new ApiError("unauthorized", `the API key is not a key of the ${environment} API`);
    // No look-up for a key generateApiKey cannot have made.
    if (!isWellFormedApiKey(key)) throw new ApiError("unauthorized", "the API key is malformed: check it was copied whole");
    const verdict = keyVerdict(await find(lookup, key), environment);
    if (!verdict.ok) throw new ApiError(verdict.code, verdict.message);
    res.locals.partner = verdict.partner;
    next();
  };
}

async function find(lookup: ApiKeyLookup, key: string) {
  try {
    return await lookup.find(hashApiKey(key));
  } catch (err) {
    // Not 401: the key may be good, and a partner retries a 500 (the spec's retry rules) but not a 401.
    if (err instanceof LookupGateFull) throw new ApiError("internal", "too many API keys being checked at once; retry later");
    throw err;
  }
}

/** The partner `authenticate` found for this request. */
export function partnerOf(res: Response): AuthenticatedPartner {
  return res.locals.partner as AuthenticatedPartner;
}

/** The partner's id once `authenticate` let the request through, for the lines logged about it. */
export function partnerIdOf(res: Response): string | undefined {
  return (res.locals.partner as AuthenticatedPartner | undefined)?.partnerId;
}
