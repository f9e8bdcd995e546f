import { Deposit, HotWallet, Revocation, Sweep } from "./responses";
import { Address, Amount, ChainId, DateTime, Hash, NextCursor } from "./scalars";
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

export const DelegationChanged = z
  .object({
    chain_id: ChainId,
    address: Address.openapi({ description: "the deposit address" }),
    tx_hash: Hash.openapi({ description: "the type-4 transaction whose authorization list changed its delegation" }),
    block_number: z.number().int().openapi({ format: "int64" }),
    sender: Address.openapi({ description: "who sent that transaction (anyone may carry a signed authorization)" }),
    old_delegate: Address.optional().openapi({ description: "the delegate it ran before, as the service knew it" }),
    new_delegate: Address.openapi({ description: "what it runs now: not one of your delegates (the zero address: its delegation removed by someone else)" }),
  })
  .openapi("DelegationChanged");

export const DepositAddressActivity = z
  .object({
    chain_id: ChainId,
    address: Address.openapi({ description: "the deposit address, which sent a transaction: its key is used outside the service" }),
    tx_hash: Hash,
    block_number: z.number().int().openapi({ format: "int64" }),
  })
  .openapi("DepositAddressActivity");

/** Each event type with the data it carries. New types may appear: receivers ignore those they do not handle. */
export const eventTypesByData = {
  Sweep: ["sweep.swept", "sweep.failed", "sweep.rejected"],
  Revocation: ["revocation.revoked", "revocation.failed", "revocation.rejected"],
  HotWallet: ["hot_wallet.active", "hot_wallet.failed"],
  BalanceLow: ["balance.low"],
  DelegationChanged: ["deposit_address.delegation_changed"],
  DepositAddressActivity: ["deposit_address.activity"],
  Deposit: ["deposit.detected"],
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
export const DelegationChangedEvent = eventOf("DelegationChangedEvent", eventTypesByData.DelegationChanged, DelegationChanged);
export const DepositAddressActivityEvent = eventOf("DepositAddressActivityEvent", eventTypesByData.DepositAddressActivity, DepositAddressActivity);
export const DepositEvent = eventOf("DepositEvent", eventTypesByData.Deposit, Deposit);

export const Event = z
  .union([SweepEvent, RevocationEvent, HotWalletEvent, BalanceLowEvent, WebhookTestEvent, DelegationChangedEvent, DepositAddressActivityEvent, DepositEvent])
  .openapi("Event", { description: "A webhook body: `data` depends on `type`." });

export type Event = z.infer<typeof Event>;

export const EventList = z
  .object({ items: z.array(Event), next_cursor: NextCursor })
  .openapi("EventList");
