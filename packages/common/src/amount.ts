/** Amounts are integers of up to 256 bits: bigint in code, digit strings on the wire and in Postgres. */
export const MAX_UINT256 = (1n << 256n) - 1n;

const digits = /^[0-9]+$/;
const signedDigits = /^-?[0-9]+$/;

export function isAmount(value: string): boolean {
  return digits.test(value) && BigInt(value) <= MAX_UINT256;
}

/** Parses a digit string into a bigint; throws RangeError for anything else (exponents, signs, floats). */
export function parseAmount(value: string): bigint {
  if (!isAmount(value)) throw new RangeError(`not an amount: ${JSON.stringify(value)}`);
  return BigInt(value);
}

export function parseSignedAmount(value: string): bigint {
  if (!signedDigits.test(value)) throw new RangeError(`not a signed amount: ${JSON.stringify(value)}`);
  return BigInt(value);
}

export function formatAmount(value: bigint): string {
  return value.toString(10);
}
