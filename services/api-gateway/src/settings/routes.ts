import { presentSettings, SettingsPatch } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { parseRequest, type ValidationCodes } from "../http/validation";

/** Every problem of a settings body is its shape (an unknown field, a value that is not a boolean): invalid_json. */
const bodyCodes: ValidationCodes = { shapeCode: "invalid_json", noun: "field", valueCodes: {} };

const settingsSelect = { keepOneUnit: true } as const;

export function settingsRoutes(deps: { db: Db }): Router {
  const router = Router();

  router.get("/v1/settings", async (_req, res) => {
    const partner = await deps.db.partner.findUniqueOrThrow({ where: { id: partnerOf(res).partnerId }, select: settingsSelect });
    res.json(presentSettings(partner));
  });

  router.patch("/v1/settings", async (req, res) => {
    const body = parseRequest(SettingsPatch, req.body, bodyCodes);
    const where = { id: partnerOf(res).partnerId };
    // Only the fields sent are written; an empty body writes nothing and reads the settings back.
    const partner =
      body.keep_one_unit === undefined
        ? await deps.db.partner.findUniqueOrThrow({ where, select: settingsSelect })
        : await deps.db.partner.update({ where, data: { keepOneUnit: body.keep_one_unit }, select: settingsSelect });
    res.json(presentSettings(partner));
  });

  return router;
}
