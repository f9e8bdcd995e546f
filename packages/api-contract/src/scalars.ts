import { z } from "./zod";

/** The spec's scalar types; each is the validator, the TypeScript type and the OpenAPI schema. */
export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .openapi("Address", { description: "0x-hex address; any case in requests, EIP-55 checksum in responses", example: "0x52908400098527886E0F7030069857D2E4169EE7" });

export const Amount = z
  .string()
  .regex(/^[0-9]+$/)
  .openapi("Amount", { description: "an integer in the smallest unit of the asset", example: "1000000" });

export const SignedAmount = z
  .string()
  .regex(/^-?[0-9]+$/)
  .openapi("SignedAmount", { description: "an integer in wei with a sign", example: "-21000000000000" });

export const ChainId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi("ChainID", { description: "EIP-155 chain id", example: 11155111, format: "int64" });

export const Gas = z.number().int().min(0).openapi("Gas", { description: "an amount of gas", format: "int64" });

export const NextCursor = z.string().nullable().openapi("NextCursor", { description: "the next page's cursor; null on the last page" });

export const DateTime = z.string().openapi({ format: "date-time", example: "2026-11-21T12:00:00.000Z" });

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ description: "stable; branch on it" }),
      message: z.string().openapi({ description: "for people; may change" }),
    }),
  })
  .openapi("Error");
