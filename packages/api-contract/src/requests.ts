import { Address, Amount, ChainId, Hash, LedgerKind, NonZeroAddress, PositiveAmount } from "./scalars";
import { z } from "./zod";

/** Request bodies and queries. Unknown fields are refused (strict objects): the spec's invalid_json. */

const hexWord = (name: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,64}$/, { error: "must be 0x-hex of 1 to 64 digits" })
    .openapi({ description: `${name} of the signature, up to 32 bytes`, example: "0x3f1c0b7a9e5d2c4b6a8f0e1d3c5b7a9f2e4d6c8b0a1f3e5d7c9b1a3f5e7d9c1b" });

export const Authorization = z
  .strictObject({
    chain_id: z
      .number()
      .int({ error: "must be an integer" })
      .min(0, { error: "must not be negative" })
      .openapi({ format: "int64", description: "the chain of the request; 0 (any chain) is refused" }),
    address: Address.openapi({ description: "the hot wallet's delegate; the zero address for a revocation" }),
    nonce: z
      .number()
      .int({ error: "must be an integer of at most 2^53-1" })
      .min(0, { error: "must not be negative" })
      .openapi({ format: "int64", description: "the deposit address's current nonce" }),
    y_parity: z.number().int({ error: "must be 0 or 1" }).min(0, { error: "must be 0 or 1" }).max(1, { error: "must be 0 or 1" }),
    r: hexWord("r"),
    s: hexWord("s").openapi({ description: "s of the signature, up to 32 bytes, in the lower half of the curve order (EIP-2)" }),
  })
  .openapi("Authorization", { description: "EIP-7702 authorization signed by the deposit address's key" });

export type Authorization = z.infer<typeof Authorization>;

/** Characters as people count them (code points), as JSON Schema's maxLength does. */
const characters = (value: string) => [...value].length;

export const ExternalId = z
  .string()
  .refine((value) => characters(value) >= 1 && characters(value) <= 128, { error: "must be 1 to 128 characters" })
  // Postgres text cannot hold NUL; a lone surrogate would be stored altered and match nothing.
  .refine((value) => !value.includes("\u0000") && Buffer.from(value, "utf8").toString("utf8") === value, {
    error: "must be valid Unicode text without NUL characters",
  })
  .openapi({ minLength: 1, maxLength: 128, description: "your id for the request, unique within the account; a repeat returns the existing object" });

export const SweepRequest = z
  .strictObject({
    external_id: ExternalId.optional(),
    chain_id: ChainId,
    hot_wallet: NonZeroAddress.openapi({ description: "the partner's hot wallet on this chain; its delegate must be active" }),
    account: NonZeroAddress.openapi({ description: "the deposit address" }),
    token: z.string().openapi({
      description: "a listed token's ticker on the chain (any case), the contract address of a listed token, or `native` (or the native coin's ticker) for the native coin",
      example: "USDT",
    }),
    amount: PositiveAmount.optional().openapi({ description: "above zero; omitted means the whole balance" }),
    keep_one_unit: z
      .boolean()
      .optional()
      .openapi({ description: "leave 1 smallest unit of the token on the deposit address; defaults to the account setting; ignored for the native coin" }),
    authorization: Authorization.optional().openapi({
      description: "needed until the deposit address is delegated to this hot wallet's delegate; afterwards unused, but one that is sent must still be valid",
    }),
  })
  .openapi("SweepRequest");

export type SweepRequest = z.infer<typeof SweepRequest>;

export const RevocationRequest = z
  .strictObject({
    external_id: ExternalId.optional(),
    chain_id: ChainId,
    account: NonZeroAddress.openapi({ description: "the deposit address" }),
    // Optional in the schema so that a missing one gets the spec's 422 invalid_authorization, not 400.
    authorization: Authorization.optional().openapi({
      description:
        "required: the deposit address's authorization of the zero address, at the nonce the address will have when the revocation is sent (one more when a sweep carrying its authorization goes on chain first)",
    }),
  })
  .openapi("RevocationRequest");

export type RevocationRequest = z.infer<typeof RevocationRequest>;

export const HotWalletRequest = z
  .strictObject({
    chain_id: ChainId,
    address: NonZeroAddress.openapi({ description: "the hot wallet, where sweeps send the funds" }),
  })
  .openapi("HotWalletRequest");

export type HotWalletRequest = z.infer<typeof HotWalletRequest>;

/** At most this many addresses in one POST /v1/deposit-addresses. */
export const MAX_DEPOSIT_ADDRESSES_PER_REQUEST = 1_000;

export const DepositAddressRegistration = z
  .strictObject({
    chain_id: ChainId,
    hot_wallet: NonZeroAddress.openapi({ description: "the account's hot wallet on this chain (registered; its delegate need not be deployed yet): the authorizations delegate to its delegate" }),
    addresses: z
      .array(
        z.strictObject({
          address: NonZeroAddress.openapi({ description: "the deposit address" }),
          authorization: Authorization.openapi({ description: "the deposit address's authorization of the hot wallet's delegate, at its current nonce" }),
        }),
      )
      .min(1, { error: `must hold 1 to ${MAX_DEPOSIT_ADDRESSES_PER_REQUEST} addresses` })
      .max(MAX_DEPOSIT_ADDRESSES_PER_REQUEST, { error: `must hold 1 to ${MAX_DEPOSIT_ADDRESSES_PER_REQUEST} addresses` })
      .openapi({ description: `1 to ${MAX_DEPOSIT_ADDRESSES_PER_REQUEST} deposit addresses, each once` }),
  })
  .openapi("DepositAddressRegistration");

export type DepositAddressRegistration = z.infer<typeof DepositAddressRegistration>;


export const sweepStatuses = ["queued", "processing", "swept", "failed", "rejected"] as const;

const pageLimitRule = "must be an integer from 1 to 200";

/** Query values are strings; these parse them strictly (no exponents, signs or spaces). */
export const PageLimit = z
  .string()
  .regex(/^[0-9]{1,3}$/, { error: pageLimitRule, abort: true })
  .transform(Number)
  .pipe(z.number().min(1, { error: pageLimitRule }).max(200, { error: pageLimitRule }))
  .optional()
  .openapi({ type: "integer", minimum: 1, maximum: 200, default: 50, description: "page size" });

export const PageCursor = z.string().optional().openapi({ description: "the next_cursor of the previous page; omitted for the first page; opaque" });

const QueryChainId = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, { error: "must be a chain id", abort: true })
  .transform(Number)
  .pipe(ChainId)
  .optional()
  .openapi({ type: "integer", format: "int64", minimum: 1 });

export const SweepListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  status: z.enum(sweepStatuses, { error: `must be one of ${sweepStatuses.join(", ")}` }).optional(),
  chain_id: QueryChainId,
  account: Address.optional().openapi({ description: "deposit address" }),
  hot_wallet: Address.optional(),
  external_id: ExternalId.optional().openapi({ description: "the sweep of this external_id (yours, or a policy's deposit:<chain>:<tx>:<log>)" }),
  tx_hash: Hash.optional().openapi({ description: "the sweeps the batch transaction of this hash carried" }),
});

export type SweepListQuery = z.infer<typeof SweepListQuery>;

export const revocationStatuses = ["queued", "processing", "revoked", "failed", "rejected"] as const;

export const delegationStates = ["unknown", "authorized", "delegated", "revoked", "compromised"] as const;

export const depositStatuses = ["pending", "confirmed"] as const;

export const policySchedules = ["asap", "hourly", "daily"] as const;

/** How far back GET /v1/events reaches. */
export const EVENT_RETENTION_DAYS = 30;

/** A list's time range: from `created_after` (included) to `created_before` (left out). */
const createdAfter = (what: string) => z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional().openapi({ description: `${what} at or after this time` });
const createdBefore = (what: string) => z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }).optional().openapi({ description: `${what} before this time` });

export const EventListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  type: z.string().regex(/^[a-z_]+\.[a-z_]+$/, "must be an event type such as sweep.swept").optional().openapi({ description: "one event type, e.g. sweep.swept" }),
  created_after: createdAfter("events"),
  created_before: createdBefore("events"),
});

export type EventListQuery = z.infer<typeof EventListQuery>;

export const SweepPolicyRequest = z
  .strictObject({
    chain_id: ChainId,
    token: z.string().openapi({ description: "a listed token's ticker (any case) or contract address, or `native` (or the native coin's ticker)", example: "USDT" }),
    hot_wallet: NonZeroAddress.openapi({ description: "where its sweeps go: a hot wallet registered on this chain" }),
    enabled: z.boolean().optional().openapi({ description: "on (the default) or off: off makes no new sweeps; those already made go on under its rules" }),
    min_balance: Amount.optional().openapi({ description: "an address is swept once its balance of the token is at least this, smallest units; 0 (the default): any balance" }),
    max_fee_per_gas: PositiveAmount.optional().openapi({ description: "wei per gas: its sweeps wait queued (waiting_for_gas_price) while the base fee and tip are above it" }),
    max_cost_bps: z.number().int().min(1).max(10_000).optional().openapi({
      description: "its sweeps wait queued (cost_above_limit) while their gas and fee would cost more than this share of what they move, in basis points (100 = 1%)",
    }),
    token_value_wei: PositiveAmount.optional().openapi({
      description: "for max_cost_bps on a token: what one whole token (10^decimals units) is worth in wei of the native coin; the service has no price feed, update it as prices move",
    }),
    schedule: z.enum(policySchedules, { error: `must be one of ${policySchedules.join(", ")}` }).optional().openapi({ description: "asap (the default): as deposits are confirmed; hourly or daily: once an hour or a day, at `at` (UTC)" }),
    at: z
      .string()
      .regex(/^(?:[01][0-9]|2[0-3])?:[0-5][0-9]$/, "must be HH:MM (daily) or :MM (hourly), UTC")
      .optional()
      .openapi({ description: "hourly: `:MM`, the minute of each hour; daily: `HH:MM`, UTC. Defaults to :00 and 00:00", example: "02:30" }),
  })
  .openapi("SweepPolicyRequest");

export type SweepPolicyRequest = z.infer<typeof SweepPolicyRequest>;

export const DepositAddressListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  chain_id: QueryChainId,
  delegation: z.enum(delegationStates, { error: `must be one of ${delegationStates.join(", ")}` }).optional(),
  address: Address.optional().openapi({ description: "one deposit address" }),
});

export type DepositAddressListQuery = z.infer<typeof DepositAddressListQuery>;

export const DepositListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  chain_id: QueryChainId,
  address: Address.optional().openapi({ description: "one deposit address" }),
  status: z.enum(depositStatuses, { error: `must be one of ${depositStatuses.join(", ")}` }).optional(),
});

export type DepositListQuery = z.infer<typeof DepositListQuery>;

export const RevocationListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  status: z.enum(revocationStatuses, { error: `must be one of ${revocationStatuses.join(", ")}` }).optional(),
  chain_id: QueryChainId,
  account: Address.optional().openapi({ description: "deposit address" }),
});

export type RevocationListQuery = z.infer<typeof RevocationListQuery>;

export const LedgerListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
  chain_id: QueryChainId,
  kind: LedgerKind.optional(),
  created_after: createdAfter("entries"),
  created_before: createdBefore("entries"),
});

export type LedgerListQuery = z.infer<typeof LedgerListQuery>;

/** GET /v1/ledger/summary: a period's figures, per chain. */
export const LedgerSummaryQuery = LedgerListQuery.omit({ limit: true, cursor: true, kind: true });

export type LedgerSummaryQuery = z.infer<typeof LedgerSummaryQuery>;

const usageDaysRule = "must be an integer from 1 to 90";

export const UsageQuery = z.strictObject({
  days: z
    .string()
    .regex(/^[0-9]{1,3}$/, { error: usageDaysRule, abort: true })
    .transform(Number)
    .pipe(z.number().min(1, { error: usageDaysRule }).max(90, { error: usageDaysRule }))
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: 90, default: 30, description: "how many days to return, today included" }),
  chain_id: QueryChainId.openapi({ description: "only this chain; every chain of the environment when omitted" }),
});

export type UsageQuery = z.infer<typeof UsageQuery>;

export const FeeCeilingRequest = z.strictObject({
  chain_id: ChainId.openapi({ description: "a chain of this environment, at most once in the list" }),
  max_fee_per_gas: PositiveAmount.openapi({ description: "wei per gas, above zero; the platform's ceiling for the chain still applies where it is lower" }),
});

export const SettingsPatch = z
  .strictObject({
    keep_one_unit: z.boolean().optional().openapi({ description: "token sweeps leave 1 smallest unit on the deposit address; a sweep request can override it" }),
    fee_ceilings: z
      .array(FeeCeilingRequest)
      .optional()
      .openapi({ description: "replaces all the account's fee ceilings, at most one per chain; chains not listed get none; [] removes them all" }),
  })
  .openapi("SettingsPatch", { description: "the settings to change; those not sent keep their values" });

export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const LowBalanceAlertRequest = z.strictObject({
  chain_id: ChainId.openapi({ description: "a chain of this environment, at most once in the list" }),
  threshold: PositiveAmount.openapi({ description: "wei, above zero; the alert fires when the gas wallet's balance on the chain falls below it" }),
});

export const WebhookRequest = z
  .strictObject({
    url: z
      .string()
      .refine((value) => characters(value) <= MAX_WEBHOOK_URL_LENGTH, { error: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` })
      .openapi({
        format: "uri",
        maxLength: MAX_WEBHOOK_URL_LENGTH,
        description: "where events go: only public https addresses, without credentials; redirects are not followed",
        example: "https://hooks.example.com/sweep",
      }),
    low_balance: z
      .array(LowBalanceAlertRequest)
      .optional()
      .openapi({ description: "replaces all alerts, at most one per chain; chains not listed get no alert; omitted removes them all" }),
  })
  .openapi("WebhookRequest");

export type WebhookRequest = z.infer<typeof WebhookRequest>;

export const WebhookDeliveryListQuery = z.strictObject({
  limit: PageLimit,
  cursor: PageCursor,
});

export type WebhookDeliveryListQuery = z.infer<typeof WebhookDeliveryListQuery>;
