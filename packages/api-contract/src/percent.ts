/**
 * Basis points as a percent in decimal notation: 7000 → "70", 1250 → "12.5", 5 → "0.05".
 * Done on the digits, never through a float: every rate shows exactly what it is.
 */
export function bpsToPercent(bps: number): string {
  if (!Number.isSafeInteger(bps) || bps < 0) throw new RangeError(`basis points must be a non-negative integer, not ${bps}`);
  const digits = String(bps).padStart(3, "0");
  const whole = digits.slice(0, -2);
  const hundredths = digits.slice(-2).replace(/0+$/, "");
  return hundredths ? `${whole}.${hundredths}` : whole;
}
