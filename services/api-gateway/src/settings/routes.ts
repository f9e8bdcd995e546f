import { presentSettings } from "@sweep/api-contract";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { parseRequest } from "../http/validation";
import { settingsBody, settingsBodyCodes } from "./settings-body";

const settingsSelect = { keepOneUnit: true, feeCeilings: { select: { chainId: true, maxFeePerGas: true } } } as const;

export function settingsRoutes(deps: { db: Db; chains: ReadonlyMap<number, unknown> }): Router {
  const router = Router();
  const bodySchema = settingsBody(deps.chains);

  router.get("/v1/settings", async (_req, res) => {
    const partner = await deps.db.partner.findUniqueOrThrow({ where: { id: partnerOf(res).partnerId }, select: settingsSelect });
    res.json(presentSettings(partner));
  });

  router.patch("/v1/settings", async (req, res) => {
    const body = parseRequest(bodySchema, req.body, settingsBodyCodes);
    const partnerId = partnerOf(res).partnerId;
    // Only the fields sent are written, in one transaction; an empty body writes nothing and reads the settings back.
    const partner = await deps.db.$transaction(async (tx) => {
      if (body.keep_one_unit !== undefined) await tx.partner.update({ where: { id: partnerId }, data: { keepOneUnit: body.keep_one_unit } });
      if (body.fee_ceilings !== undefined) {
        // The partner's row first: two PATCHes at once would otherwise both delete nothing and the second insert a duplicate key.
        await tx.$queryRaw`SELECT 1 FROM partners WHERE id = ${partnerId}::uuid FOR UPDATE`;
        await tx.partnerFeeCeiling.deleteMany({ where: { partnerId } });
        await tx.partnerFeeCeiling.createMany({ data: body.fee_ceilings.map((c) => ({ partnerId, chainId: c.chain_id, maxFeePerGas: c.max_fee_per_gas })) });
      }
      return tx.partner.findUniqueOrThrow({ where: { id: partnerId }, select: settingsSelect });
    });
    res.json(presentSettings(partner));
  });

  return router;
}
