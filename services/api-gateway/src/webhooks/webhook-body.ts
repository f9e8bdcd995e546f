import { LowBalanceAlertRequest, WebhookRequest, z } from "@sweep/api-contract";
import type { ValidationCodes } from "../http/validation";
import { webhookUrlProblem } from "./webhook-url";

/** The spec's 422 codes of PUT /v1/webhook, in the order the spec lists them. */
export const webhookBodyCodes: ValidationCodes = {
  shapeCode: "invalid_json",
  noun: "field",
  valueCodes: { url: "invalid_url", "low_balance.chain_id": "unknown_chain", "low_balance.threshold": "invalid_amount" },
};

/**
 * PUT /v1/webhook's body with the rules that need this API: the URL's public-https check and the
 * chains of the environment, each alert's chain at most once. Kept in the schema, so every
 * problem is ranked by webhookBodyCodes whatever rule found it.
 */
export function webhookBody(chains: ReadonlyMap<number, unknown>, reach: { allowPrivate: boolean; allowHttp: boolean } = { allowPrivate: false, allowHttp: false }) {
  const chainList = [...chains.keys()].join(", ");
  const alert = LowBalanceAlertRequest.extend({
    chain_id: LowBalanceAlertRequest.shape.chain_id.refine((chainId) => chains.has(chainId), { error: `must be a chain of this API: one of ${chainList}` }),
  });
  return WebhookRequest.extend({
    url: WebhookRequest.shape.url.superRefine((url, ctx) => {
      const problem = webhookUrlProblem(url, reach);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    low_balance: z
      .array(alert)
      .superRefine((alerts, ctx) => {
        const seen = new Set<number>();
        alerts.forEach(({ chain_id }, index) => {
          if (seen.has(chain_id)) ctx.addIssue({ code: "custom", path: [index, "chain_id"], message: "is listed twice; at most one alert per chain" });
          seen.add(chain_id);
        });
      })
      .optional(),
  });
}
