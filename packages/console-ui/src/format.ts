/** Wei (or a token's smallest unit) as a decimal of whole coins: exact, from the API's integer strings. */
export function formatUnits(amount: string, decimals = 18): string {
  const value = BigInt(amount);
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** A wei amount as a number of coins for a chart's axis: approximate, never shown as the figure itself. */
export function unitsForChart(amount: string, decimals = 18): number {
  return Number(formatUnits(amount, decimals));
}

/** An ISO time as the reader's local date and time. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" });
}

/** A hash or address shortened for a table cell; the full value goes in its title and detail view. */
export function shorten(hex: string): string {
  return hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex;
}

/** Gas as a grouped integer (21,000). */
export function formatGas(gas: number | undefined): string {
  return gas === undefined ? "—" : gas.toLocaleString("en-US");
}

/** `part` as a percentage of `whole`, with one decimal (truncated), e.g. 132.5%. */
export function percentOf(part: bigint, whole: bigint): string {
  if (whole === 0n) return "—";
  const tenths = (part * 1000n) / whole;
  const magnitude = tenths < 0n ? -tenths : tenths;
  return `${tenths < 0n ? "-" : ""}${magnitude / 10n}.${magnitude % 10n}%`;
}

/**
 * A decimal typed in whole coins or tokens ("0.05", "25") as base units, exact: null when it is not
 * a plain non-negative decimal or has more decimals than the asset.
 */
export function parseUnits(text: string, decimals = 18): string | null {
  const match = /^([0-9]*)(?:\.([0-9]*))?$/.exec(text.trim());
  if (!match || (match[1] === "" && (match[2] ?? "") === "")) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) return null;
  return (BigInt(match[1] || "0") * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")).toString();
}
