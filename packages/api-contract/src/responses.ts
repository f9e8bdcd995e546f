import { delegationStates, depositStatuses, policySchedules, revocationStatuses, sweepStatuses } from "./requests";
import { Address, Amount, ChainId, DateOnly, DateTime, Gas, Hash, LedgerKind, NextCursor, SignedAmount } from "./scalars";
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
    tx_hash: Hash.optional().openapi({ description: "the transaction that deployed the delegate" }),
    created_at: DateTime.openapi({ description: "when registered" }),
  })
  .openapi("HotWallet");

export type HotWallet = z.infer<typeof HotWallet>;

export const HotWalletList = z.object({ hot_wallets: z.array(HotWallet) }).openapi("HotWalletList");

export const Deposit = z
  .object({
    id: z.uuid(),
    chain_id: ChainId,
    address: Address.openapi({ description: "the deposit address it was paid to" }),
    token: z.string().openapi({ description: "ticker of the token or of the native coin" }),
    token_address: Address.optional().openapi({ description: "absent for the native coin" }),
    amount: Amount,
    tx_hash: Hash,
    log_index: z.number().int().optional().openapi({ description: "the token's Transfer log in its block; absent for the native coin" }),
    block_number: z.number().int().openapi({ format: "int64" }),
    status: z.enum(depositStatuses).openapi({
      description: "pending: in a block the chain may still replace (a reorg that removes it removes the deposit); confirmed: at the chain's confirmations, deposit.detected sent",
    }),
    detected_at: DateTime,
    confirmed_at: DateTime.optional(),
  })
  .openapi("Deposit", {
    description:
      "A transfer to a deposit address of the inventory, seen in the chain's blocks: a listed token's Transfer log, or a transaction sending the native coin to the address itself. Native coin that reaches an address by a contract's internal call (a smart wallet's payout, a bridge) is not seen: sweeping the whole balance covers it.",
  });

export type Deposit = z.infer<typeof Deposit>;

export const DepositList = z.object({ items: z.array(Deposit), next_cursor: NextCursor }).openapi("DepositList");

export const SweepPolicy = z
  .object({
    chain_id: ChainId,
    token: z.string().openapi({ description: "ticker of the token or of the native coin" }),
    token_address: Address.optional().openapi({ description: "absent for the native coin" }),
    hot_wallet: Address,
    enabled: z.boolean(),
    min_balance: Amount,
    max_fee_per_gas: Amount.optional(),
    max_cost_bps: z.number().int().optional(),
    token_value_wei: Amount.optional(),
    schedule: z.enum(policySchedules),
    at: z.string().optional().openapi({ description: "hourly: `:MM`; daily: `HH:MM` (UTC)" }),
    next_run_at: DateTime.optional().openapi({ description: "hourly and daily: when its next window opens" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi("SweepPolicy");

export type SweepPolicy = z.infer<typeof SweepPolicy>;

export const SweepPolicyList = z.object({ items: z.array(SweepPolicy) }).openapi("SweepPolicyList");

export const DepositAddress = z
  .object({
    chain_id: ChainId,
    address: Address.openapi({ description: "the deposit address" }),
    delegation: z.enum(delegationStates).openapi({
      description:
        "what the service last knew of its EIP-7702 delegation: unknown (no authorization of a delegate held: known from a revocation or a sweep without one), authorized (an authorization of a hot wallet's delegate is held, not yet applied), delegated (a sweep went through: it runs `delegate`), revoked (a revocation took the delegation back), compromised (the delegation firewall saw it delegate elsewhere or send a transaction: `compromised`; sweeps of it are rejected foreign_delegation until a new authorization of your delegate is registered)",
    }),
    compromised: z
      .object({ tx_hash: Hash.openapi({ description: "the transaction that delegated it elsewhere or that it sent" }), block_number: z.number().int().openapi({ format: "int64" }) })
      .optional()
      .openapi({ description: "with compromised: where the firewall saw it" }),
    delegate: Address.optional().openapi({ description: "the delegate it runs (delegated) or its held authorization names (authorized)" }),
    authorization_nonce: z.number().int().optional().openapi({ format: "int64", description: "the nonce of the authorization held" }),
    last_activity_at: DateTime.optional().openapi({ description: "when the latest sweep or revocation of it was requested" }),
    recent_deposits: z.array(Deposit).openapi({ description: "its newest deposits, 5 at most; GET /v1/deposits?address= lists them all" }),
    created_at: DateTime.openapi({ description: "when it entered the inventory" }),
    updated_at: DateTime,
  })
  .openapi("DepositAddress");

export type DepositAddress = z.infer<typeof DepositAddress>;

export const DepositAddressList = z.object({ items: z.array(DepositAddress), next_cursor: NextCursor }).openapi("DepositAddressList");

export const DepositAddressRegistrationResult = z
  .object({ items: z.array(DepositAddress).openapi({ description: "the addresses as now stored, in the request's order" }) })
  .openapi("DepositAddressRegistrationResult");

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
    reason: z.string().optional().openapi({
      description:
        "why it ended rejected or failed, or, while queued for retry, why the last attempt did not go through; while queued, waiting_for_gas_price: the chain's base fee keeps its batch above the fee ceiling (the platform's, or fee_ceilings in the settings), and it goes on by itself when the fee falls; rejected foreign_delegation: the delegation firewall marked the deposit address compromised (GET /v1/deposit-addresses), nothing was sent to it; a sweep policy's sweep, while queued: waiting_for_gas_price also when the gas price is above its policy's max_fee_per_gas, cost_above_limit while its gas and fee would cost more than its policy's max_cost_bps of what it moves (both go on by themselves)",
    }),
    created_by: z.literal("policy").optional().openapi({ description: "present when a sweep policy made it from confirmed deposits (its external_id is deposit:<chain_id>:<tx_hash>:<log_index>, -1 for native coin); absent for sweeps you requested" }),
    attempts: z.number().int().min(0).openapi({ description: "times tried" }),
    swept_amount: Amount.optional().openapi({ description: "amount that reached the hot wallet; only with swept" }),
    tx_hash: Hash.optional().openapi({ description: "the batch transaction that carried the sweep" }),
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
        "rejected: not_delegated, stale_authorization, invalid_authorization; failed: not_applied (the chain skipped the authorization) or an attempt failure as for a sweep; while queued for retry, why the last attempt did not go through; while queued, waiting_for_gas_price as for a sweep",
    }),
    attempts: z.number().int().min(0).openapi({ description: "times tried" }),
    tx_hash: Hash.optional().openapi({ description: "the transaction that carried it" }),
    gas: Gas.optional().openapi({ description: "the revocation's share of its transaction's gas" }),
    gas_cost: Amount.optional().openapi({ description: "the same in wei" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi("Revocation");

export type Revocation = z.infer<typeof Revocation>;

export const RevocationList = z.object({ items: z.array(Revocation), next_cursor: NextCursor }).openapi("RevocationList");

export type RevocationList = z.infer<typeof RevocationList>;

export const Balance = z
  .object({
    gas_wallet: Address.openapi({ description: "the account's gas wallet, the same on every chain" }),
    chains: z
      .array(
        z.object({
          chain_id: ChainId,
          name: z.string().openapi({ description: "chain name" }),
          native: z.string().openapi({ description: "ticker of the native coin" }),
          balance: Amount.optional().openapi({ description: "wei, read from the chain's node; absent when `error` is set" }),
          fees_accrued: Amount.openapi({ description: "all fees and charges accrued minus credits, wei; 0 when credits exceed them" }),
          fees_withdrawn: Amount.openapi({ description: "fees withdrawn so far with the gas of their withdrawals, wei" }),
          fees_due: Amount.openapi({ description: "accrued and not yet withdrawn; kept on the gas wallet in reserve, not spent on gas" }),
          available: Amount.optional().openapi({ description: "balance minus fees_due, not below zero; absent when `error` is set" }),
          error: z.string().optional().openapi({ description: "only value: chain_unavailable (the chain's node did not answer, so no balance)" }),
        }),
      )
      .openapi({ description: "one per chain of the environment" }),
  })
  .openapi("Balance");

export type Balance = z.infer<typeof Balance>;
export type ChainBalance = Balance["chains"][number];

export const ChainTariff = z
  .object({
    chain_id: ChainId,
    name: z.string().openapi({ description: "chain name" }),
    rate_bps: z.number().int().openapi({ description: "X for token sweeps in basis points (7000 = 70%); 0 means no fee" }),
    rate: z.string().openapi({ description: "rate_bps in percent", example: "70" }),
    native_markup_bps: z.number().int().openapi({ description: "markup on gas for native coin sweeps, basis points" }),
    native_markup: z.string().openapi({ description: "native_markup_bps in percent", example: "10" }),
    native: z.string().openapi({ description: "ticker of the native coin, whose amounts are in wei (18 decimals)", example: "ETH" }),
    tokens: z
      .array(
        z.object({
          token: z.string().openapi({ description: "the ticker sweeps name it by", example: "USDT" }),
          address: Address,
          decimals: z.number().int().min(0).openapi({ description: "its amounts are in units of 10^-decimals of a token" }),
        }),
      )
      .openapi({ description: "the tokens listed on the chain" }),
    classic_gas: z
      .record(
        z.string(),
        z.object({
          new: Gas.openapi({ description: "gas for an address without an account on the chain, which the top-up creates (tokens only)" }),
          existing: Gas.openapi({ description: "gas for an address with an account" }),
        }),
      )
      .optional()
      .openapi({ description: "benchmark per asset, keyed by the token ticker or native coin ticker; absent on a chain without benchmarks" }),
    extra_gas: z
      .object({
        delegation: Gas.openapi({ description: "setting the address's delegate by its authorization" }),
        account: Gas.openapi({ description: "creating the account too, for an address that held only tokens" }),
      })
      .optional()
      .openapi({ description: "batch gas a first sweep of an address bears on top of a repeat one; absent on a chain without benchmarks" }),
  })
  .openapi("ChainTariff", {
    description:
      "Token sweep fee = max(0; X × classic benchmark − gas of the sweep), X = rate_bps. Native coin sweep fee = markup on the sweep's gas, never more than the sweep saves against a plain 21,000-gas transfer. Counted in gas at the batch's gas price.",
  });

export type ChainTariff = z.infer<typeof ChainTariff>;

export const Tariff = z.object({ chains: z.array(ChainTariff) }).openapi("Tariff");

export type Tariff = z.infer<typeof Tariff>;

export const FeeCeiling = z
  .object({
    chain_id: ChainId,
    max_fee_per_gas: Amount.openapi({ description: "wei per gas: no transaction of the account's gas wallet on the chain offers a higher max fee" }),
  })
  .openapi("FeeCeiling", {
    description: "the account's own ceiling on a chain's gas price; where the platform's ceiling for the chain is lower, that one applies. While the chain's base fee keeps a batch above it, its sweeps and revocations wait queued (reason waiting_for_gas_price)",
  });

export type FeeCeiling = z.infer<typeof FeeCeiling>;

export const Settings = z
  .object({
    keep_one_unit: z.boolean().openapi({ description: "token sweeps leave 1 smallest unit on the deposit address (makes the user's next deposit cheaper); a sweep request can override it; off by default" }),
    fee_ceilings: z.array(FeeCeiling).openapi({ description: "at most one per chain, by chain_id; empty by default (the platform's ceilings apply)" }),
  })
  .openapi("Settings");

export type Settings = z.infer<typeof Settings>;

export const ledgerPaidForKinds = ["sweep_batch", "revocation_batch", "delegate_deployment", "withdrawal", "drain", "nonce_fill"] as const;

export const LedgerPaidFor = z
  .object({
    kind: z.enum(ledgerPaidForKinds).openapi({
      description:
        "sweep_batch: a batch of sweeps; revocation_batch: a batch of revocations; delegate_deployment: a hot wallet's delegate contract; withdrawal: fees withdrawn to the treasury; drain: the gas wallet emptied to another address; nonce_fill: a self-transfer filling a nonce left free by a transaction given up",
    }),
    batch_id: z.uuid().openapi({ description: "the batch the transaction carried" }),
    items: z.number().int().min(0).openapi({ description: "sweeps or revocations the batch carried; 0 for the other kinds" }),
    // Inline, not the Address component: a nullable reference would be written as an allOf.
    hot_wallet: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .nullable()
      .openapi({ description: "the hot wallet of a sweep batch or a delegate deployment, EIP-55" }),
  })
  .openapi("LedgerPaidFor");

export const LedgerEntry = z
  .object({
    id: z.number().int().openapi({ format: "int64" }),
    chain_id: ChainId,
    kind: LedgerKind,
    amount: SignedAmount.openapi({ description: "wei with a sign: plus for topup and fee_credit, minus for gas, fees, charges, withdrawals" }),
    tx_hash: Hash.nullable().openapi({ description: "null for top-ups, charges and credits" }),
    sweep_id: z.uuid().nullable().openapi({ description: "the sweep a fee is for; null for other kinds" }),
    note: z.string().nullable().openapi({ description: "note on charges and credits; for top-ups, the blocks the reconciliation covered" }),
    created_at: DateTime,
    balance_after: SignedAmount.openapi({
      description: "the gas wallet's balance on the chain by the ledger once this entry is booked (gas, withdrawals and top-ups move it; fees, charges and credits are owed, not paid out, until a withdrawal)",
    }),
    paid_for: LedgerPaidFor.nullable().openapi({ description: "what a gas entry paid for; null for the other kinds" }),
  })
  .openapi("LedgerEntry");

export type LedgerEntry = z.infer<typeof LedgerEntry>;

export type LedgerPaidFor = z.infer<typeof LedgerPaidFor>;

export const LedgerList = z.object({ items: z.array(LedgerEntry), next_cursor: NextCursor }).openapi("LedgerList");

export type LedgerList = z.infer<typeof LedgerList>;

const ledgerSum = (description: string) => SignedAmount.openapi({ description });

export const LedgerChainSummary = z
  .object({
    chain_id: ChainId,
    opening_balance: ledgerSum("the gas wallet's balance by the ledger before the period (created_after)"),
    closing_balance: ledgerSum("the gas wallet's balance by the ledger at the period's end (created_before, or now)"),
    totals: z
      .object({ gas: SignedAmount, fee: SignedAmount, fee_charge: SignedAmount, fee_credit: SignedAmount, withdrawal: SignedAmount, topup: SignedAmount })
      .openapi({ description: "the period's entries summed by kind, wei with a sign; closing = opening + gas + withdrawal + topup" }),
    entries: z.number().int().min(0).openapi({ description: "the period's entries on the chain" }),
  })
  .openapi("LedgerChainSummary");

export const LedgerSummary = z.object({ chains: z.array(LedgerChainSummary) }).openapi("LedgerSummary", { description: "a period's ledger per chain, every chain of the environment" });

export type LedgerSummary = z.infer<typeof LedgerSummary>;

const count = (description: string) => z.number().int().min(0).openapi({ description });

export const UsageDay = z
  .object({
    date: DateOnly.openapi({ description: "the UTC day" }),
    chain_id: ChainId,
    sweeps_done: count("sweeps created that day that ended swept"),
    sweeps_failed: count("created that day, ended failed (reverted on chain or attempts ran out)"),
    sweeps_rejected: count("created that day, ended rejected (never sent; a check kept failing)"),
    revocations_done: count("created that day, ended revoked"),
    gas_spent: Amount.openapi({ description: "gas of the gas wallet's transactions that day, wei, fee withdrawals aside" }),
    fees: SignedAmount.openapi({ description: "fees and charges accrued that day minus credits, wei; below zero when credits exceed them" }),
  })
  .openapi("UsageDay", { description: "one chain, one UTC day" });

export type UsageDay = z.infer<typeof UsageDay>;

export const Usage = z.object({ days: z.array(UsageDay).openapi({ description: "oldest first; one row per day and chain" }) }).openapi("Usage");

export type Usage = z.infer<typeof Usage>;

export const Webhook = z
  .object({
    url: z.string().openapi({ format: "uri", description: "where events go" }),
    secret: z.string().openapi({ description: "the signing secret, prefix whsec_; created with the webhook, kept when the URL changes, replaced by POST /v1/webhook/rotate-secret", example: "whsec_2b8f0e5c…" }),
    previous_secret_until: DateTime.optional().openapi({
      description: "after a rotation: until then every delivery carries a second v1 signature, with the secret before it, so a receiver switches secrets without dropping events",
    }),
    low_balance: z
      .array(
        z.object({
          chain_id: ChainId,
          threshold: Amount.openapi({ description: "wei" }),
          low: z.boolean().openapi({ description: "the balance is below the threshold and the alert was sent; re-arms when the balance recovers" }),
        }),
      )
      .openapi({ description: "one alert per chain, by chain_id" }),
  })
  .openapi("Webhook");

export type Webhook = z.infer<typeof Webhook>;

export const deliveryStatuses = ["pending", "delivered", "failed"] as const;

export const WebhookDelivery = z
  .object({
    id: z.uuid().openapi({ description: "the event's id" }),
    event: z.string().openapi({ description: "event type", example: "sweep.swept" }),
    status: z.enum(deliveryStatuses).openapi({
      description: "pending (being delivered or waiting for the next attempt), delivered (the endpoint answered 2xx), failed (attempts ran out, or the webhook was deleted)",
    }),
    attempts: z.number().int().min(0).openapi({ description: "attempts so far" }),
    last_status_code: z.number().int().nullable().openapi({ description: "HTTP status of the last attempt; null if no answer" }),
    last_error: z.string().nullable().openapi({
      description:
        "null if the last attempt did not fail. `status <code>`, timeout, connection refused, connection reset, connection closed, DNS lookup failed, TLS error, connection failed, private address refused, webhook removed, internal",
    }),
    created_at: DateTime.openapi({ description: "when the event happened" }),
    delivered_at: DateTime.nullable().openapi({ description: "null until delivered" }),
    next_attempt_at: DateTime.nullable().openapi({ description: "only for pending" }),
  })
  .openapi("WebhookDelivery");

export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ items: z.array(WebhookDelivery), next_cursor: NextCursor }).openapi("WebhookDeliveryList");

export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookTestAccepted = z.object({ id: z.uuid().openapi({ description: "the webhook.test event's id" }) }).openapi("WebhookTestAccepted");

export type WebhookTestAccepted = z.infer<typeof WebhookTestAccepted>;
