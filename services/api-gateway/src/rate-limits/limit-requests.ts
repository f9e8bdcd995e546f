import { ApiError } from "../http/api-error";
import type { Request, RequestHandler, Response } from "express";
import { partnerOf } from "../auth/authenticate";
import { clientAddressKey } from "./client-address";
import type { RequestLimit } from "./request-limit";

/** Refuses a request over `limit` with 429 rate_limited and Retry-After, counted under `keyOf`'s key. */
export function limitRequests(limit: RequestLimit, keyOf: (req: Request, res: Response) => string, what: string): RequestHandler {
  return async (req, res, next) => {
    const verdict = await limit.take(keyOf(req, res));
    if (!verdict.allowed) {
      res.set("Retry-After", String(verdict.retryAfterSeconds));
      throw new ApiError("rate_limited", `too many requests ${what}; retry after ${verdict.retryAfterSeconds} s`);
    }
    next();
  };
}

/** Before the key is checked, so a flood of made-up keys is limited too: the client as TRUST_PROXY lets express read it (the TCP peer without). */
export const limitPerAddress = (limit: RequestLimit) => limitRequests(limit, (req) => clientAddressKey(req.ip), "from this address");

/** After authenticate: the key's hash (authenticate's, not computed again), never the key, or the console session names it in Redis. */
export const limitPerKey = (limit: RequestLimit) => limitRequests(limit, (_req, res) => partnerOf(res).limitKey, "with this API key or console session");

/** A console sign-in per client address: each is a slow hash, and a guess at a password. */
export const limitSignIns = (limit: RequestLimit) => limitRequests(limit, (req) => clientAddressKey(req.ip), "to sign in from this address");

/** Per partner, whichever of its keys asks. */
export const limitPerPartner = (limit: RequestLimit, what: string) => limitRequests(limit, (_req, res) => partnerOf(res).partnerId, what);
