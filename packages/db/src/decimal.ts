import { Prisma } from "@prisma/client";

/** Decimal(78,0) columns to bigint; `toFixed` because Decimal prints large values with exponents. */
export function toBigInt(value: Prisma.Decimal): bigint {
  return BigInt(value.toFixed(0));
}

export function toBigIntOrNull(value: Prisma.Decimal | null | undefined): bigint | null {
  return value === null || value === undefined ? null : toBigInt(value);
}

export function toDecimal(value: bigint): Prisma.Decimal {
  return new Prisma.Decimal(value.toString(10));
}
