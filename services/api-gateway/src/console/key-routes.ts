import { ApiError } from "../http/api-error";
import type { Environment } from "@sweep/common";
import { invalidatePartnerKeys } from "@sweep/credentials";
import { issueApiKey, revokeApiKey, type Db } from "@sweep/db";
import { Router } from "express";
import type Redis from "ioredis";
import { partnerOf } from "../auth/authenticate";
import { isUuid } from "../http/uuid";

export interface KeyRoutesDeps {
  db: Db;
  redis: Redis;
  environment: Environment;
}

const keySelect = { id: true, prefix: true, hash: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/** A key as the console lists it: never the key, its display prefix as sweepctl prints it. */
function presentKey(key: { id: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }) {
  return {
    id: key.id,
    prefix: `${key.prefix}…`,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

const noKey = () => new ApiError("not_found", "no such API key in the account");

/** The partner's API keys in the console: the same issuing and revoking as `sweepctl key create` and `key revoke`. */
export function keyRoutes(deps: KeyRoutesDeps): Router {
  const router = Router();

  router.get("/console/api/keys", async (_req, res) => {
    const keys = await deps.db.apiKey.findMany({ where: { partnerId: partnerOf(res).partnerId }, orderBy: { createdAt: "desc" }, select: keySelect });
    res.json({ items: keys.map(presentKey) });
  });

  router.post("/console/api/keys", async (req, res) => {
    if (req.body !== undefined && (typeof req.body !== "object" || req.body === null || Array.isArray(req.body) || Object.keys(req.body as object).length > 0)) {
      throw new ApiError("invalid_json", "POST /console/api/keys takes no body, or {}");
    }
    const key = await issueApiKey(deps.db, partnerOf(res).partnerId, deps.environment);
    // The whole key only in this answer: nothing keeps it, no cache may either.
    res.status(201).set("Cache-Control", "no-store").json({ id: key.id, key: key.key, prefix: `${key.prefix}…`, created_at: key.createdAt.toISOString() });
  });

  router.post("/console/api/keys/:id/revoke", async (req, res) => {
    if (!isUuid(req.params.id)) throw noKey();
    const where = { id: req.params.id.toLowerCase(), partnerId: partnerOf(res).partnerId };
    const key = await deps.db.apiKey.findFirst({ where, select: keySelect });
    if (!key) throw noKey();
    await revokeApiKey(deps.db, key.id, new Date());
    // Also for a key revoked before: a retry after Redis failed must still drop the cached look-up.
    await invalidatePartnerKeys(deps.redis, [key.hash]);
    res.json(presentKey(await deps.db.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: keySelect })));
  });

  return router;
}
