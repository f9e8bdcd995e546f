import { FeeCeilingRequest, SettingsPatch, z } from "@sweep/api-contract";
import type { ValidationCodes } from "../http/validation";

/** PATCH /v1/settings: a wrong shape is invalid_json; a fee ceiling's chain or amount, the spec's 422 codes in its order. */
export const settingsBodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: { "fee_ceilings.chain_id": "unknown_chain", "fee_ceilings.max_fee_per_gas": "invalid_amount" },
};

/**
 * PATCH /v1/settings's body with the rules that need this API: each fee ceiling's chain one of the
 * environment's, at most once. Kept in the schema, so every problem is ranked by settingsBodyCodes.
 */
export function settingsBody(chains: ReadonlyMap<number, unknown>) {
  const chainList = [...chains.keys()].join(", ");
  const ceiling = FeeCeilingRequest.extend({
    chain_id: FeeCeilingRequest.shape.chain_id.refine((chainId) => chains.has(chainId), { error: `must be a chain of this API: one of ${chainList}` }),
  });
  return SettingsPatch.extend({
    fee_ceilings: z
      .array(ceiling)
      .superRefine((ceilings, ctx) => {
        const seen = new Set<number>();
        ceilings.forEach(({ chain_id }, index) => {
          if (seen.has(chain_id)) ctx.addIssue({ code: "custom", path: [index, "chain_id"], message: "is listed twice; at most one fee ceiling per chain" });
          seen.add(chain_id);
        });
      })
      .optional(),
  });
}
