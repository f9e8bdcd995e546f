import { z } from "./zod";

/**
 * The spec's scalar types; each is the validator, the TypeScript type and the OpenAPI schema.
 * The `error` texts finish a message that the API starts with the field's name.
 */
export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: "must be a 0x-address of 40 hex digits" })
  .openapi("Address", { description: "0x-hex address; any case in requests, EIP-55 checksum in responses", example: "0x52908400098527886E0F7030069857D2E4169EE7" });

const zeroAddress = /^0x0{40}$/;

/** An address that may receive or hold funds: the zero address is refused. */
export const NonZeroAddress = Address.refine((value) => !zeroAddress.test(value), { error: "must not be the zero address" });

/** A transaction hash. Its pattern, like Address's, makes the SDK type it `0x${string}` (packages/client/scripts/hex-strings.ts). */
export const Hash = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, { error: "must be a 0x-transaction hash of 64 hex digits" })
  .openapi({ description: "0x-hex transaction hash of 64 digits", example: "0x8e0b5d3c1f7a9e2b4c6d8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c" });

export const Amount = z
  .string()
  .regex(/^[0-9]+$/)
  .openapi("Amount", { description: "an integer in the smallest unit of the asset", example: "1000000" });

export const SignedAmount = z
  .string()
  .regex(/^-?[0-9]+$/)
  .openapi("SignedAmount", { description: "an integer in wei with a sign", example: "-21000000000000" });

const maxUint256 = (1n << 256n) - 1n;

/** A requested amount: digits, above zero, at most 2^256-1 (what the chain can move). */
export const PositiveAmount = z
  .string()
  .regex(/^[0-9]+$/, { error: "must be a string of decimal digits, in the smallest unit", abort: true })
  .refine((value) => BigInt(value) > 0n, { error: "must be above zero" })
  .refine((value) => BigInt(value) <= maxUint256, { error: "must be at most 2^256-1" })
  .openapi({ description: "an integer above zero in the smallest unit of the asset", pattern: "^[0-9]+$", example: "1000000" });

const chainIdRule = "must be an integer chain id of at least 1";

export const ChainId = z
  .number()
  .int({ error: chainIdRule })
  .min(1, { error: chainIdRule })
  .openapi("ChainID", { description: "EIP-155 chain id", example: 11155111, format: "int64" });

export const Gas = z.number().int().min(0).openapi("Gas", { description: "an amount of gas", format: "int64" });

export const NextCursor = z.string().nullable().openapi("NextCursor", { description: "the next page's cursor; null on the last page" });

export const DateTime = z.string().openapi({ format: "date-time", example: "2026-11-21T12:00:00.000Z" });

export const DateOnly = z.string().openapi({ format: "date", description: "a UTC day, YYYY-MM-DD", example: "2026-11-21" });

export const ledgerKinds = ["gas", "fee", "fee_charge", "fee_credit", "withdrawal", "topup"] as const;

export const LedgerKind = z.enum(ledgerKinds, { error: `must be one of ${ledgerKinds.join(", ")}` }).openapi("LedgerKind", {
  description:
    "gas: gas of a transaction of the gas wallet; fee: the fee for a sweep; fee_charge: a charge under the partner's agreement; fee_credit: a credit under the agreement that reduces fees due; withdrawal: fees withdrawn from the gas wallet, with the withdrawal's gas; topup: a top-up of the gas wallet found by balance reconciliation",
});

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ description: "stable; branch on it" }),
      message: z.string().openapi({ description: "for people; may change" }),
    }),
  })
  .openapi("Error");
