import { revocationStatuses, sweepStatuses } from "./requests";
import { Address, Amount, ChainId, DateTime, Gas, NextCursor } from "./scalars";
import { z } from "./zod";

/** Response bodies: optional fields are omitted when they have no value. */

export const hotWalletStatuses = ["pending", "active", "failed"] as const;

export const HotWallet = z
  .object({
    chain_id: ChainId,
    address: Address.openapi({ description: "the hot wallet, where sweeps send the funds" }),
    delegate: Address.openapi({ description: "the delegate contract address that deposit addresses sign authorizations for; known at once" }),
    status: z.enum(hotWalletStatuses),
    error: z.string().optional().openapi({
      description:
        "only with failed: not_deployed, insufficient_gas_balance (top up the gas wallet and register again), gas_limit_exceeded, transaction_reverted, nonce_conflict, chain_unavailable, internal",
    }),
    tx_hash: z.string().optional().openapi({ description: "the transaction that deployed the delegate" }),
    created_at: DateTime.openapi({ description: "when registered" }),
  })
  .openapi("HotWallet");

export type HotWallet = z.infer<typeof HotWallet>;

export const HotWalletList = z.object({ hot_wallets: z.array(HotWallet) }).openapi("HotWalletList");

export const sweepKinds = ["repeat", "first", "first_new"] as const;

export const Sweep = z
  .object({
    id: z.uuid(),
    external_id: z.string().optional().openapi({ description: "present if the request had one" }),
    chain_id: ChainId,
    hot_wallet: Address,
    account: Address.openapi({ description: "deposit address" }),
    token: z.string().openapi({ description: "ticker of the token or of the native coin" }),
    token_address: Address.optional().openapi({ description: "absent for the native coin" }),
    amount: Amount.optional().openapi({ description: "amount requested; absent when the whole balance was requested" }),
    keep_one_unit: z.literal(true).optional().openapi({ description: "present and true when 1 smallest unit is left" }),
    status: z.enum(sweepStatuses),
    reason: z.string().optional().openapi({ description: "why it ended rejected or failed, or, while queued for retry, why the last attempt did not go through" }),
    attempts: z.number().int().min(0).openapi({ description: "times tried" }),
    swept_amount: Amount.optional().openapi({ description: "amount that reached the hot wallet; only with swept" }),
    tx_hash: z.string().optional().openapi({ description: "the batch transaction that carried the sweep" }),
    kind: z.enum(sweepKinds).optional(),
    gas: Gas.optional().openapi({ description: "the sweep's share of the batch gas" }),
    gas_cost: Amount.optional().openapi({ description: "the sweep's gas in wei" }),
    fee: Amount.optional().openapi({ description: "the fee in wei; only with swept" }),
    classic_gas: Gas.optional().openapi({ description: "the benchmark the fee was computed with" }),
    rate_bps: z.number().int().optional().openapi({ description: "the rate the fee was computed with; for the native coin, the markup on gas" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi("Sweep");

export type Sweep = z.infer<typeof Sweep>;

export const SweepList = z.object({ items: z.array(Sweep), next_cursor: NextCursor }).openapi("SweepList");

export type SweepList = z.infer<typeof SweepList>;

export const Revocation = z
  .object({
    id: z.uuid(),
    external_id: z.string().optional().openapi({ description: "present if the request had one" }),
    chain_id: ChainId,
    account: Address.openapi({ description: "deposit address" }),
    status: z.enum(revocationStatuses),
    reason: z.string().optional().openapi({
      description:
        "rejected: not_delegated, stale_authorization, invalid_authorization; failed: not_applied (the chain skipped the authorization) or an attempt failure as for a sweep; while queued for retry, why the last attempt did not go through",
    }),
    attempts: z.number().int().min(0).openapi({ description: "times tried" }),
    tx_hash: z.string().optional().openapi({ description: "the transaction that carried it" }),
    gas: Gas.optional().openapi({ description: "the revocation's share of its transaction's gas" }),
    gas_cost: Amount.optional().openapi({ description: "the same in wei" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi("Revocation");

export type Revocation = z.infer<typeof Revocation>;

export const RevocationList = z.object({ items: z.array(Revocation), next_cursor: NextCursor }).openapi("RevocationList");

export type RevocationList = z.infer<typeof RevocationList>;
