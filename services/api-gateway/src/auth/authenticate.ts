import { ApiError } from "../http/api-error";
import { hashApiKey, isWellFormedApiKey } from "@sweep/credentials";
import type { Environment } from "@sweep/common";
import type { RequestHandler, Response } from "express";
import { sessionPartner } from "../console/session-auth";
import type { ConsoleSessions } from "../console/session-store";
import type { ApiKeyLookup } from "./api-key-lookup";
import type { KeyUsage } from "./key-usage";
import { LookupGateFull } from "./lookup-gate";
import { bearerKey, keyClaimsEnvironment, keyVerdict, type AuthenticatedPartner } from "./api-key-verdict";

/**
 * Every /v1 request but the OpenAPI document: 401 unauthorized or 403 partner_disabled, else the
 * partner in res.locals. A request without an Authorization header may come from the console,
 * with its session cookie instead (and its CSRF token for a change): the same partner lands in
 * res.locals, so the routes serve the console and the API alike.
 */
export function authenticate(lookup: ApiKeyLookup, environment: Environment, sessions: ConsoleSessions, usage: KeyUsage): RequestHandler {
  return async (req, res, next) => {
    if (req.get("authorization") === undefined) {
      const partner = await sessionPartner(req, sessions, environment);
      if (partner) {
        res.locals.partner = partner;
        return next();
      }
    }
    const key = bearerKey(req.get("authorization"));
    if (!key) throw new ApiError("unauthorized", "send the API key as Authorization: Bearer <key>");
    if (!keyClaimsEnvironment(key, environment)) throw new ApiError("unauthorized", `the API key is not a key of the ${environment} API`);
    // No look-up for a key generateApiKey cannot have made.
    if (!isWellFormedApiKey(key)) throw new ApiError("unauthorized", "the API key is malformed: check it was copied whole");
    const hash = hashApiKey(key);
    const verdict = keyVerdict(await find(lookup, hash), environment);
    if (!verdict.ok) throw new ApiError(verdict.code, verdict.message);
    await usage.used(hash);
    res.locals.partner = verdict.partner;
    next();
  };
}

async function find(lookup: ApiKeyLookup, hash: string) {
  try {
    return await lookup.find(hash);
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
