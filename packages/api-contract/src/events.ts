import { HotWallet, Revocation, Sweep } from "./responses";
import { Address, Amount, ChainId, DateTime } from "./scalars";
import { z } from "./zod";

/** Webhook bodies (the spec's Event): documented under the OpenAPI document's `webhooks`. */

export const BalanceLow = z
  .object({
    chain_id: ChainId,
    gas_wallet: Address,
    balance: Amount.openapi({ description: "wei, when the alert fired" }),
    threshold: Amount.openapi({ description: "wei" }),
  })
  .openapi("BalanceLow");

export const WebhookTest = z.object({ message: z.string() }).openapi("WebhookTest");

/** Each event type with the data it carries. New types may appear: receivers ignore those they do not handle. */
export const eventTypesByData = {
  Sweep: ["sweep.swept", "sweep.failed", "sweep.rejected"],
  Revocation: ["revocation.revoked", "revocation.failed", "revocation.rejected"],
  HotWallet: ["hot_wallet.active", "hot_wallet.failed"],
  BalanceLow: ["balance.low"],
  WebhookTest: ["webhook.test"],
} as const;

export type EventType = (typeof eventTypesByData)[keyof typeof eventTypesByData][number];

const eventOf = <T extends readonly [string, ...string[]], D extends z.ZodType>(name: string, types: T, data: D) =>
  z
    .object({
      id: z.uuid().openapi({ description: "the event's id, the same in every attempt" }),
      type: z.enum(types),
      created_at: DateTime.openapi({ description: "when the event happened" }),
      data,
    })
    .openapi(name);

export const SweepEvent = eventOf("SweepEvent", eventTypesByData.Sweep, Sweep);
export const RevocationEvent = eventOf("RevocationEvent", eventTypesByData.Revocation, Revocation);
export const HotWalletEvent = eventOf("HotWalletEvent", eventTypesByData.HotWallet, HotWallet);
export const BalanceLowEvent = eventOf("BalanceLowEvent", eventTypesByData.BalanceLow, BalanceLow);
export const WebhookTestEvent = eventOf("WebhookTestEvent", eventTypesByData.WebhookTest, WebhookTest);

export const Event = z
  .union([SweepEvent, RevocationEvent, HotWalletEvent, BalanceLowEvent, WebhookTestEvent])
  .openapi("Event", { description: "A webhook body: `data` depends on `type`." });

export type Event = z.infer<typeof Event>;
